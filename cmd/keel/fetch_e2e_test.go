package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// fetchSite is a loopback web server for the fetch tool: an article with
// a token-shaped secret in it, a long page, a page that never ends, and
// redirects to another loopback address and within the site.
type fetchSite struct {
	*httptest.Server
	hits atomic.Int64
	port string
}

const fetchSecret = "ghp_" + "R8xK2mQ9vL4nP7wT1zY5bC3dF6gH0jA2sE4u"

func startFetchSite(t *testing.T) *fetchSite {
	t.Helper()
	s := &fetchSite{}
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Tunnels</title></head><body><nav>MENU-NOISE</nav><article><h1>Tunnels</h1>
<p>Gophers dig <strong>long tunnels</strong>, with chambers, exits, and stores, which this paragraph describes at length, and more.</p>
<p>The deploy key is %s, pasted here by mistake, in a paragraph long enough, with commas, to count as content.</p>
<p>See <a href="/burrows">burrows</a>, and the other pages, for the rest of the story of tunnels and burrows.</p></article></body></html>`, fetchSecret)
	})
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("line of a long page\n", 10000))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/to-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2"+s.port+"/article", http.StatusFound)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/article", http.StatusMovedPermanently)
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	s.port = s.URL[strings.LastIndex(s.URL, ":"):]
	return s
}

func fetchCall(url string) llmtest.Round {
	return llmtest.ToolRound(llmtest.Call{Name: "fetch", Args: fmt.Sprintf(`{"url":%q}`, url)})
}

// TestFetchThroughTheBinary: with the loopback server allowed in the
// config, fetch returns the article's main content as markdown to the
// model, follows a same-host redirect, cuts a long page at max_bytes,
// stops a page that never ends at the timeout, and refuses a redirect to
// another loopback address; the datalog stores the page redacted.
func TestFetchThroughTheBinary(t *testing.T) {
	site := startFetchSite(t)
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[fetch]\nallow_domains = [\"127.0.0.1\"]\nallow_networks = [\"127.0.0.1/32\"]\nmax_bytes = 4000\ntimeout = \"1s\"\n")
	srv := llmtest.Start(t, llmtest.Rounds(
		fetchCall(site.URL+"/article"), fetchCall(site.URL+"/moved"), fetchCall(site.URL+"/long"),
		fetchCall(site.URL+"/slow"), fetchCall(site.URL+"/to-loopback"), llmtest.TextRound("read them"),
	))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read the tunnel pages", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	results := fetchResults(srv)
	if len(results) != 5 {
		t.Fatalf("%d tool results, want 5:\n%s", len(results), strings.Join(results, "\n---\n"))
	}
	checks := []struct {
		name      string
		want, not []string
	}{
		{"article", []string{"# Tunnels", "Gophers dig **long tunnels**", "[burrows](" + site.URL + "/burrows)", fetchSecret}, []string{"MENU-NOISE", "<p>"}},
		{"same-host redirect", []string{"URL: " + site.URL + "/article", "Gophers dig"}, nil},
		{"size cap", []string{"longer than 4000 bytes (fetch.max_bytes)"}, []string{strings.Repeat("line of a long page\n", 201)}},
		{"timeout", []string{"timed out after 1s (fetch.timeout)"}, nil},
		{"redirect to loopback", []string{"refused the redirect", "127.0.0.2 is a loopback address"}, []string{"Gophers"}},
	}
	for i, c := range checks {
		for _, w := range c.want {
			if !strings.Contains(results[i], w) {
				t.Errorf("%s: the model's result lacks %q:\n%s", c.name, w, results[i])
			}
		}
		for _, n := range c.not {
			if strings.Contains(results[i], n) {
				t.Errorf("%s: the model's result holds %q", c.name, n)
			}
		}
	}
	stored := 0
	filepath.WalkDir(filepath.Join(home, "data"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		stored += len(b)
		if strings.Contains(string(b), fetchSecret[4:]) {
			t.Errorf("the fetched page's secret is stored raw in %s", p)
		}
		return nil
	})
	export, _, _ := runKeelHome(t, home, nil, dir, "", "log", "export", sessionID(t, out)[:12], "--format", "jsonl")
	if stored == 0 || !strings.Contains(export, "Gophers dig") || !strings.Contains(export, "The deploy key is [REDACTED:") {
		t.Errorf("keel log export should hold the fetched page, redacted:\n%.3000s", export)
	}
}

// TestFetchRefusesLoopbackByDefault: without allow_networks, a loopback
// (or private, link-local) address written in the URL is refused before
// anyone is asked, and a name that resolves to one is refused when
// connecting; the server is never reached.
func TestFetchRefusesLoopbackByDefault(t *testing.T) {
	site := startFetchSite(t)
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[fetch]\nallow_domains = [\"localhost\"]\n")
	srv := llmtest.Start(t, llmtest.Rounds(
		fetchCall(site.URL+"/article"), fetchCall("http://localhost"+site.port+"/article"),
		fetchCall("http://10.1.2.3/admin"), fetchCall("http://169.254.169.254/latest/meta-data/"), fetchCall("http://[fd00::1]/"),
		llmtest.TextRound("refused"),
	))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read it", "--output-format", "json", "--allow", "fetch:127.0.0.1")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	results := fetchResults(srv)
	if len(results) != 5 {
		t.Fatalf("%d results: %q", len(results), results)
	}
	for i, want := range []string{"10.1.2.3 is a private address", "169.254.169.254 is a link-local address", "fd00::1 is a unique local (private) address"} {
		if r := results[2+i]; !strings.Contains(r, "permission denied: "+want) {
			t.Errorf("want %q refused before any connection, got %q", want, r)
		}
	}
	for i, r := range results[:2] {
		if !strings.Contains(r, "a loopback address") || !strings.Contains(r, "allow_networks") || strings.Contains(r, "Gophers") {
			t.Errorf("call %d: want a loopback refusal that says how to allow it, got:\n%s", i, r)
		}
	}
	if !strings.Contains(results[0], "permission denied") {
		t.Errorf("a loopback literal is refused by the policy, before the call: %s", results[0])
	}
	if !strings.Contains(results[1], "fetching http://localhost") {
		t.Errorf("a name resolving to loopback is refused at connect time: %s", results[1])
	}
	if n := site.hits.Load(); n != 0 {
		t.Fatalf("the loopback server was reached %d times", n)
	}
}

// TestFetchDomainAskedHeadless: a domain no rule allows is denied in
// headless mode with a reason that names the rule to add; --allow
// fetch:HOST lets it through.
func TestFetchDomainAskedHeadless(t *testing.T) {
	site := startFetchSite(t)
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[fetch]\nallow_networks = [\"127.0.0.1/32\"]\n")
	srv := llmtest.Start(t, llmtest.Rounds(fetchCall(site.URL+"/article"), llmtest.TextRound("denied")))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read it", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := fetchResults(srv)
	if len(r) != 1 || !strings.Contains(r[0], "denied in headless mode: fetch reaches 127.0.0.1, not allowed yet; allow it with --allow fetch:127.0.0.1") {
		t.Fatalf("want a headless denial naming the rule, got %q", r)
	}
	if !strings.Contains(out, `"tool_name":"fetch"`) || site.hits.Load() != 0 {
		t.Errorf("the denial belongs in permission_denials, and the site must not be reached (%d hits): %s", site.hits.Load(), out)
	}
	srv = llmtest.Start(t, llmtest.Rounds(fetchCall(site.URL+"/article"), llmtest.TextRound("read")))
	_, errOut, code = runKeelHome(t, home, srv, dir, "", "-p", "read it", "--output-format", "json", "--allow", "fetch:127.0.0.1")
	if r := fetchResults(srv); code != 0 || len(r) != 1 || !strings.Contains(r[0], "Gophers dig") {
		t.Fatalf("--allow fetch:127.0.0.1: exit %d %s %q", code, errOut, r)
	}
}

// fetchResults are the tool messages of the last request the fake model got.
func fetchResults(srv *llmtest.Server) []string {
	reqs := srv.Requests()
	if len(reqs) == 0 {
		return nil
	}
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}
