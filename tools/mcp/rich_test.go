package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/mcp/mcptest"
)

func TestABannerOnStdoutIsSkippedAndShown(t *testing.T) {
	m, n := newManager(t, Options{}, stdioServer("wrapped", map[string]string{mcptest.ModeEnv: "banner"}))
	started(t, m)
	if st := m.Status(5)[0]; st.State != StateReady {
		t.Fatalf("a server behind a banner: %v %s (notices %q)", st.State, st.Err, n.all())
	}
	if res := call(t, context.Background(), m, "mcp__wrapped__noisy", `{}`); res.IsError || res.Output != "noisy: done" {
		t.Fatalf("a call that prints noise mid-session = %+v", res)
	}
	if res := call(t, context.Background(), m, "mcp__wrapped__echo", `{"text":"still"}`); res.Output != "echo: still" {
		t.Fatalf("after the noise = %+v", res)
	}
	st := m.Status(5)[0]
	for _, want := range []string{mcptest.Banner, "a JSON log line", mcptest.NoiseLine} {
		if !strings.Contains(st.Noise, want) {
			t.Errorf("/mcp's noise lacks %q:\n%s", want, st.Noise)
		}
	}
	if rep := Report(m.Status(5)); !strings.Contains(rep, "not JSON-RPC (skipped):\n    "+mcptest.Banner) {
		t.Errorf("report:\n%s", rep)
	}
}

func TestProgressReachesTheCall(t *testing.T) {
	m, _ := newManager(t, Options{}, stdioServer("test", nil))
	tool, _ := m.Member("mcp__test__progress")
	ch := make(chan tools.Progress, 8)
	res, err := tool.(tools.Progressive).RunProgress(context.Background(), []byte(`{"steps":3}`), func(p tools.Progress) { ch <- p })
	if err != nil || res.Output != "progress: 3 steps, token true" {
		t.Fatalf("result %+v, %v", res, err)
	}
	var got []tools.Progress
	for len(got) < 3 { // notifications may trail the response
		select {
		case p := <-ch:
			got = append(got, p)
		case <-time.After(time.Minute):
			t.Fatalf("progress = %+v, want 3 steps", got)
		}
	}
	if got[2].Progress != 3 || got[2].Total != 3 || got[2].Message != "step 3" {
		t.Errorf("progress = %+v, want 3 steps in order", got)
	}
	if s := got[1].String(); s != "2/3 (67%) step 2" {
		t.Errorf("String = %q", s)
	}
	// Run without a report asks for no progress.
	if res := call(t, context.Background(), m, "mcp__test__progress", `{"steps":2}`); res.Output != "progress: 2 steps, token false" {
		t.Errorf("Run = %+v", res)
	}
}

func TestImageResult(t *testing.T) {
	m, _ := newManager(t, Options{}, stdioServer("test", nil))
	res := call(t, context.Background(), m, "mcp__test__image", `{}`)
	if len(res.Images) != 1 || res.Images[0].Width != mcptest.ImageWidth || res.Images[0].MIME != "image/png" {
		t.Fatalf("images = %+v", res.Images)
	}
	if res.Output != "here is the picture\n[image 3×2 image/png]" {
		t.Errorf("output = %q", res.Output)
	}
}

func TestResources(t *testing.T) {
	m, _ := newManager(t, Options{}, stdioServer("test", nil))
	started(t, m)
	ctx := context.Background()
	list := call(t, ctx, m, ListResourcesTool, `{}`)
	for _, want := range []string{"test: " + mcptest.TextResource + " (readme, text/plain) — a text resource", "test: " + mcptest.ImageResource} {
		if !strings.Contains(list.Output, want) {
			t.Errorf("list lacks %q:\n%s", want, list.Output)
		}
	}
	if got := call(t, ctx, m, ReadResourceTool, `{"server":"test","uri":"`+mcptest.TextResource+`"}`); !strings.Contains(got.Output, mcptest.TextBody) {
		t.Errorf("read text = %+v", got)
	}
	if got := call(t, ctx, m, ReadResourceTool, `{"server":"test","uri":"`+mcptest.ImageResource+`"}`); len(got.Images) != 1 {
		t.Errorf("read image = %+v", got)
	}
	tests := []struct{ args, want string }{
		{`{"server":"nope","uri":"x"}`, `there is no MCP server "nope"; the servers are: test`},
		{`{"server":"test","uri":""}`, "uri is required"},
		{`{"server":"test","uri":"mcptest://missing"}`, "reading mcptest://missing from \"test\" failed"},
	}
	for _, tt := range tests {
		if got := call(t, ctx, m, ReadResourceTool, tt.args); !got.IsError || !strings.Contains(got.Output, tt.want) {
			t.Errorf("%s = %+v, want an error with %q", tt.args, got, tt.want)
		}
	}
	if st := m.Status(0)[0]; st.Resources != 2 {
		t.Errorf("status resources = %d", st.Resources)
	}
}

func TestNoResourceToolsWithoutResources(t *testing.T) {
	m := New([]ServerConfig{stdioServer("test", nil)}, Options{})
	if strings.Contains(memberNames(m), "resource") {
		t.Errorf("resource tools offered before any server listed resources: %s", memberNames(m))
	}
}

func TestPrompts(t *testing.T) {
	m, _ := newManager(t, Options{}, stdioServer("test", nil))
	started(t, m)
	ps := m.Prompts()
	if len(ps) != 1 || ps[0].Command != "test:review" || ps[0].Usage() != "/test:review file=… [focus=…]" {
		t.Fatalf("prompts = %+v", ps)
	}
	ctx := context.Background()
	tests := []struct{ line, want, err string }{
		{"main.go", "Review main.go", ""},
		{"main.go error handling", "Review main.go for error handling", ""},
		{`focus="the tests" file=a.go`, "Review a.go for the tests", ""},
		{"", "", "/test:review needs file; usage: /test:review file=… [focus=…]"},
		{`"unclosed`, "", "quote is not closed"},
	}
	for _, tt := range tests {
		got, err := m.GetPrompt(ctx, "test:review", tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || got.Text != tt.want {
			t.Errorf("%q = %q, %v; want %q", tt.line, got.Text, err, tt.want)
		}
	}
	if _, err := m.GetPrompt(ctx, "test:nope", ""); err == nil || !strings.Contains(err.Error(), "no MCP server offers the prompt /test:nope") {
		t.Errorf("unknown prompt: %v", err)
	}
}

func TestParseArgsWithoutArguments(t *testing.T) {
	p := Prompt{Command: "s:hello"}
	if _, err := ParseArgs(p, "extra"); err == nil || !strings.Contains(err.Error(), "takes no more arguments") {
		t.Errorf("err = %v", err)
	}
	if got, err := ParseArgs(p, "  "); err != nil || len(got) != 0 {
		t.Errorf("%v %v", got, err)
	}
}
