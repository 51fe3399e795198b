package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// A call's arguments too large to keep reach the tool whole, and then
// only in a shortened form the history, the next request, the datalog's
// message and tool-call rows: a notice naming the key, the size, the
// SHA-256 and the path (issue 26: a 50 MB write re-sent each request).
// Small arguments stay as they are.
func TestBigArgumentsAreShortenedOnceTheCallRan(t *testing.T) {
	content := strings.Repeat("package big // a generated line\n", 4096) // 128 KiB
	big, _ := json.Marshal(map[string]string{"path": "gen.go", "content": content})
	small := `{"path":"small.go","content":"x"}`
	var got []string
	writer := &fakeTool{name: "write_file", class: tools.Write, run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
		got = append(got, string(args))
		return tools.Result{Output: "written"}, nil
	}}
	srv := llmtest.Rounds(
		llmtest.ToolRound(call("c1", "write_file", string(big)), call("c2", "write_file", small)),
		llmtest.TextRound("done"))
	s, db, id, server := recordedSessionServer(t, srv, func(o *Options) { o.Tools = append(o.Tools, writer) })
	events, st := runTask(t, context.Background(), s, "write it")
	if st.Reason != StopCompleted {
		t.Fatalf("stopped %s: %s", st.Reason, st.Message)
	}
	if len(got) != 2 || got[0] != string(big) || got[1] != small {
		t.Fatalf("the tool did not get the arguments whole")
	}
	sum := sha256.Sum256([]byte(content))
	notice := fmt.Sprintf(`[keel: %d bytes (128.0 KiB) of \"content\" for write_file on gen.go not kept in the conversation, too large to send again; the call ran; sha256 %s; read_file gen.go shows what the file holds now]`,
		len(content), hex.EncodeToString(sum[:]))
	want := `{"content":"` + notice + `","path":"gen.go"}`
	check := func(where, args string) {
		t.Helper()
		if args != want {
			t.Errorf("%s: the big call's arguments are\n%.300s\nwant\n%s", where, args, want)
		}
	}
	reqs := server.Requests()
	last := reqs[len(reqs)-1]
	calls := last.Messages[2].ToolCalls
	check("the next request", calls[0].Args)
	if calls[1].Args != small {
		t.Errorf("the small call's arguments changed: %s", calls[1].Args)
	}
	if strings.Contains(string(last.Body), "a generated line") {
		t.Error("the next request still carries the content")
	}
	check("the history", s.History()[1].ToolCalls[0].Arguments)
	// The events carry the same form (the TUI kept two sanitised copies
	// of a 50 MB content and peaked at 525 MB): about to run, then ran.
	var started, finished string
	for _, ev := range events {
		switch e := ev.(type) {
		case ToolStarted:
			if e.CallID == "c1" {
				started = e.Args
			} else if e.Args != small {
				t.Errorf("the small call started with %s", e.Args)
			}
		case ToolFinished:
			if e.CallID == "c1" {
				finished = e.Args
			}
		}
	}
	check("ToolFinished", finished)
	if want := strings.Replace(want, "the call ran; ", "the call was about to run; ", 1); started != strings.Replace(want, "; read_file gen.go shows what the file holds now", "", 1) {
		t.Errorf("ToolStarted: the big call's arguments are\n%.400s", started)
	}
	hist, err := db.LoadHistory(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	check("the datalog's history", hist[1].ToolCalls[0].Arguments)
	detail, err := db.LoadSession(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	check("the datalog's tool-call row", detail.Rounds[0].ToolCalls[0].Arguments)
}
