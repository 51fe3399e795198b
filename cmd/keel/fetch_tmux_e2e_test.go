package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestFetchDomainQuestionInTmux: the first fetch from a domain asks; A
// allows it always (saved in the user's config, so the next call and a
// later headless run go through unasked); another domain asks again, and
// s allows it for the session only (the config is not changed).
func TestFetchDomainQuestionInTmux(t *testing.T) {
	t.Parallel()
	site := startFetchSite(t)
	other := "http://localhost" + site.port
	srv := llmtest.Start(t, llmtest.Rounds(
		fetchCall(site.URL+"/article"), fetchCall(site.URL+"/moved"), llmtest.TextRound("read both pages"),
		fetchCall(other+"/article"), fetchCall(other+"/moved"), llmtest.TextRound("read it by name"),
	))
	home, dir := t.TempDir(), project(t)
	cfg := filepath.Join(home, "cfg", "keel", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("# my settings\n[fetch]\nallow_networks = [\"127.0.0.1/32\"]\n"), 0o600)
	tm := startTmux(t, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	tm.waitTitle(ui.TitleReady)

	tm.keys("read the tunnel pages", "Enter")
	q := tm.waitFor("Allow fetch?", "fetch reaches 127.0.0.1, not allowed yet", "A allow always", "A saves in your config: fetch:127.0.0.1",
		"s covers: fetch: every call reaching 127.0.0.1")
	t.Logf("the question:\n%s", q)
	if strings.Contains(q, `{"url"`) {
		t.Errorf("the question shows the call's JSON, not its URL:\n%s", q)
	}
	tm.keys("A")
	t.Logf("after A:\n%s", tm.waitFor("read both pages", "saved in your config: fetch:127.0.0.1"))
	tm.waitTitle(ui.TitleReady)
	if data, _ := os.ReadFile(cfg); string(data) != "# my settings\n[fetch]\nallow_domains = [\"127.0.0.1\"]\nallow_networks = [\"127.0.0.1/32\"]\n" {
		t.Fatalf("always should add the domain and keep the rest of the file:\n%s", data)
	}
	if n := site.hits.Load(); n != 3 { // the article, the redirect and its target: the second call was not asked about
		t.Fatalf("%d requests reached the site, want 3:\n%s", n, tm.screen())
	}

	tm.keys("now by name", "Enter")
	tm.waitFor("fetch reaches localhost, not allowed yet")
	tm.keys("s")
	t.Logf("after s:\n%s", tm.waitFor("read it by name"))
	tm.waitTitle(ui.TitleReady)
	if data, _ := os.ReadFile(cfg); strings.Contains(string(data), "localhost") {
		t.Fatalf("a session grant was saved:\n%s", data)
	}
	if strings.Count(tm.screen(), "Allow fetch?") > 0 {
		t.Fatalf("a question is still open:\n%s", tm.screen())
	}
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}

	again := llmtest.Start(t, llmtest.Rounds(fetchCall(site.URL+"/article"), llmtest.TextRound("still allowed")))
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(home, "cfg")}
	_, errOut, code := runKeelEnv(t, home, env, again, dir, "", "-p", "read it again", "--output-format", "json")
	if r := fetchResults(again); code != 0 || len(r) != 1 || !strings.Contains(r[0], "Gophers dig") {
		t.Fatalf("a later headless run should fetch the saved domain unasked: exit %d %s %q", code, errOut, r)
	}
}
