package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// everythingPkg is the official reference server these tests run.
const everythingPkg = "@modelcontextprotocol/server-everything@2026.8.31"

// mcpBanner is what the wrapper prints on stdout before the server
// starts, as wrappers that load a configuration do.
const mcpBanner = "Loading config... done"

// refServer is a reference MCP server behind a banner-printing wrapper,
// with its long-running tool (which reports progress) and its image tool.
type refServer struct {
	argv               []string
	longTool, longArgs string
	imageTool          string
	progressTotal      float64
}

// everythingServer installs server-everything from npm once into the
// user's cache; it skips, saying why, when node or npm is missing or the
// install fails (no network).
func everythingServer(t *testing.T) refServer {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the npm reference server cannot run (the Go SDK server test covers the same)", tool)
		}
	}
	dir, err := npmInstall(everythingPkg, "server-everything-2026.8.31")
	if err != nil {
		t.Skipf("npm install %s failed, so the npm reference server cannot run: %v", everythingPkg, err)
	}
	index := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	return refServer{argv: bannerWrapper("node", index, "stdio"),
		longTool: "mcp__ref__trigger-long-running-operation", longArgs: `{"duration":1.5,"steps":3}`,
		imageTool: "mcp__ref__get-tiny-image", progressTotal: 3}
}

// goSDKServer is mcptest's server, on the Go SDK, behind the same wrapper.
func goSDKServer(t *testing.T) refServer {
	t.Helper()
	return refServer{argv: bannerWrapper(mcpServerBinary(t)), longTool: "mcp__ref__progress", longArgs: `{"steps":3}`,
		imageTool: "mcp__ref__image", progressTotal: 3}
}

// bannerWrapper runs argv through sh after a line on stdout that is not
// JSON-RPC.
func bannerWrapper(argv ...string) []string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return []string{"sh", "-c", "echo '" + mcpBanner + "'; exec " + strings.Join(q, " ")}
}

// npmInstall installs pkg into the cache directory name once and returns
// the directory holding its node_modules.
func npmInstall(pkg, name string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "keel-test", name)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	_ = os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"name":"keel-mcp-e2e","private":true}`), 0o644)
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", pkg)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errString(strings.TrimSpace(string(out)) + ": " + err.Error())
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil { // another run won the race otherwise
			return "", err
		}
	}
	return dir, nil
}

func TestMCPReferenceServerNPM(t *testing.T) {
	t.Parallel()
	testReferenceServer(t, everythingServer(t))
}

func TestMCPReferenceServerGoSDK(t *testing.T) {
	t.Parallel()
	testReferenceServer(t, goSDKServer(t))
}

// testReferenceServer: behind a wrapper that prints a banner, the server
// still starts; its long-running tool's progress comes as stream-json
// tool_progress lines before the call's tool_finished and is recorded with
// the call; its image tool's picture reaches the model's next request as
// image input, and the datalog keeps it by reference.
func testReferenceServer(t *testing.T, ref refServer) {
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: ref.longTool, Args: ref.longArgs}),
		llmtest.ToolRound(llmtest.Call{Name: ref.imageTool, Args: `{}`}),
		llmtest.TextRound("I see a small logo"),
	))
	q := make([]string, len(ref.argv)-1)
	for i, a := range ref.argv[1:] {
		q[i] = strconv.Quote(a)
	}
	home := mcpHome(t, "model = \"fake-vision\"\n\n[images]\nmodels = [\"fake-vision\"]\n\n[mcp.servers.ref]\ncommand = "+
		strconv.Quote(ref.argv[0])+"\nargs = ["+strings.Join(q, ", ")+"]\nstartup_timeout = \"90s\"\ntrust_read_only = true\n")
	out, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "run the long operation, then show me the image",
		"--output-format", "stream-json", "--yolo")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	checkProgressLines(t, out, ref.progressTotal)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3; stderr %s", len(reqs), errOut)
	}
	checkImageSent(t, reqs[2].Messages)
	checkDatalog(t, home, out)

	// keel mcp list shows the banner as the server's noise, the server ready
	list, _, code := runKeelHome(t, home, nil, project(t), "", "mcp", "list")
	if code != 0 || !strings.Contains(list, "ref: ready") || !strings.Contains(list, mcpBanner) {
		t.Errorf("keel mcp list: exit %d\n%s", code, list)
	}
}

// checkProgressLines: at least one tool_progress line, with the tool's
// total, each before the call's tool_finished.
func checkProgressLines(t *testing.T, out string, total float64) {
	t.Helper()
	var progress []map[string]any
	finished := false
	for _, l := range strings.Split(out, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		switch m["type"] {
		case "tool_progress":
			if finished {
				t.Errorf("a tool_progress line after the call finished: %s", l)
			}
			progress = append(progress, m)
		case "tool_finished":
			if len(progress) > 0 {
				finished = true
			}
		}
	}
	if len(progress) == 0 || progress[0]["total"] != total || progress[0]["tool_use_id"] == "" {
		t.Errorf("tool_progress lines = %v\nstdout:\n%s", progress, out)
	}
}

// checkImageSent: the request after the image tool holds the PNG as an
// image_url part of a user message.
func checkImageSent(t *testing.T, msgs []llmtest.RecordedMessage) {
	t.Helper()
	for _, m := range msgs {
		if len(m.Images) == 0 {
			continue
		}
		u := m.Images[0] // the first image sent is the tool's
		data, ok := strings.CutPrefix(u, "data:image/png;base64,")
		b, err := base64.StdEncoding.DecodeString(data)
		if !ok || err != nil || m.Role != "user" {
			t.Fatalf("image part %.60q in a %s message: %v", u, m.Role, err)
		}
		if _, format, err := image.DecodeConfig(bytes.NewReader(b)); err != nil || format != "png" {
			t.Fatalf("the image sent is not a PNG: %v", err)
		}
		return
	}
	raw := ""
	for _, m := range msgs {
		raw += string(m.Raw) + "\n"
	}
	t.Fatalf("no image reached the model; the request's messages:\n%.3000s", raw)
}

// checkDatalog: the long call's progress is recorded with it, and the
// image comes back from the datalog with its bytes.
func checkDatalog(t *testing.T, home, out string) {
	t.Helper()
	var sid string
	for _, l := range strings.Split(out, "\n") {
		var m struct {
			Type      string `json:"type"`
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Type == "result" {
			sid = m.SessionID
		}
	}
	db, err := datalog.Open(filepath.Join(home, "data", "keel", "keel.db"), datalog.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	d, err := db.LoadSession(ctx, sid)
	if err != nil || len(d.Rounds) == 0 || len(d.Rounds[0].ToolCalls) != 1 {
		t.Fatalf("session %q: %v", sid, err)
	}
	var steps []map[string]any
	if p := d.Rounds[0].ToolCalls[0].Progress; json.Unmarshal([]byte(p), &steps) != nil || len(steps) == 0 {
		t.Errorf("the long call's recorded progress = %q", p)
	}
	hist, err := db.LoadHistory(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range hist {
		for _, im := range m.Images {
			if len(im.Data) > 0 && im.Width > 0 {
				n++
			}
		}
	}
	if n != 1 {
		t.Errorf("%d images with their bytes in the resumed history, want 1", n)
	}
}
