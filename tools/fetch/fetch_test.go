package fetch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools"
)

const articleHTML = `<!doctype html><html><head><title>The Gopher Guide</title>
<script>var tracking = "SCRIPT-NOISE";</script></head><body>
<nav><a href="/">Home</a> <a href="/about">NAV-NOISE about us</a></nav>
<article><h1>The Gopher Guide</h1>
<p>Gophers dig tunnels. This paragraph is long enough for readability to score it as the article's main content, with commas, and more words, and so on, and on.</p>
<p>Read <a href="/docs/tunnels">the tunnel docs</a> for more about tunnels, burrows, and the gophers that make them, day after day, year after year.</p>
<ul><li>first point</li><li>second point</li></ul>
</article>
<footer>FOOTER-NOISE copyright</footer></body></html>`

// loopback is a tool allowed to reach the test server's address only.
func loopback(t *testing.T, opts Options) *Tool {
	t.Helper()
	ns, err := ParseNetworks([]string{"127.0.0.1/32"})
	if err != nil {
		t.Fatal(err)
	}
	opts.Networks = ns
	return New(opts)
}

func call(t *testing.T, tool tools.Tool, url string) tools.Result {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"url": url})
	res, err := tool.Run(context.Background(), args)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestFetchArticleAsMarkdown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, articleHTML)
	}))
	defer srv.Close()
	res := call(t, loopback(t, Options{}), srv.URL+"/guide#part")
	if res.IsError {
		t.Fatalf("fetch failed: %s", res.Output)
	}
	for _, want := range []string{"# The Gopher Guide", "URL: " + srv.URL + "/guide", "Gophers dig tunnels.", "[the tunnel docs](" + srv.URL + "/docs/tunnels)", "- first point"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	for _, noise := range []string{"SCRIPT-NOISE", "NAV-NOISE", "FOOTER-NOISE", "<p>"} {
		if strings.Contains(res.Output, noise) {
			t.Errorf("output keeps %q, which is not the main content:\n%s", noise, res.Output)
		}
	}
}

func TestFetchFullPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, articleHTML)
	}))
	defer srv.Close()
	res, _ := loopback(t, Options{}).Run(context.Background(), json.RawMessage(`{"url":"`+srv.URL+`","full":true}`))
	if res.IsError || !strings.Contains(res.Output, "NAV-NOISE") || strings.Contains(res.Output, "SCRIPT-NOISE") {
		t.Fatalf("full: the whole page's text (no scripts) was expected:\n%s", res.Output)
	}
}

func TestFetchTextTypes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a": "<b>kept</b>"}`)
		case "/latin1":
			w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
			w.Write([]byte("caf\xe9"))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n...."))
		case "/missing":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "<html><body><p>No such page</p></body></html>")
		}
	}))
	defer srv.Close()
	tool := loopback(t, Options{})
	cases := []struct {
		path    string
		isError bool
		want    string
	}{
		{"/json", false, `{"a": "<b>kept</b>"}`},
		{"/latin1", false, "café"},
		{"/png", true, "image/png, not text"},
		{"/missing", true, "HTTP 404 Not Found"},
	}
	for _, c := range cases {
		res := call(t, tool, srv.URL+c.path)
		if res.IsError != c.isError || !strings.Contains(res.Output, c.want) {
			t.Errorf("%s: IsError=%v output %q; want IsError=%v with %q", c.path, res.IsError, res.Output, c.isError, c.want)
		}
	}
}

func TestFetchRefusesLoopbackByDefault(t *testing.T) {
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	cases := []struct{ url, want string }{
		{srv.URL, "loopback"},                   // a literal: refused before any request
		{"http://localhost" + port, "loopback"}, // a name: refused on the address it resolved to, at connect time
		{"http://[::ffff:127.0.0.1]" + port, "loopback"},
	}
	for _, c := range cases {
		res := call(t, New(Options{}), c.url)
		if !res.IsError || !strings.Contains(res.Output, c.want) || !strings.Contains(res.Output, "allow_networks") {
			t.Errorf("%s: %q; want a refusal naming %q and how to allow it", c.url, res.Output, c.want)
		}
	}
	if hits != 0 {
		t.Fatalf("the loopback server was reached %d times", hits)
	}
}

func TestFetchRedirects(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	mux.HandleFunc("/to-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2"+port+"/secret", http.StatusFound)
	})
	mux.HandleFunc("/to-v6-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://[::1]"+port+"/secret", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/to-other-host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost"+port+"/page", http.StatusFound)
	})
	mux.HandleFunc("/same-host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "landed") })
	tool := loopback(t, Options{MaxRedirects: 3})
	cases := []struct {
		path    string
		isError bool
		want    string
	}{
		{"/to-loopback", true, "127.0.0.2 is a loopback address"},
		{"/to-v6-loopback", true, "::1 is a loopback address"},
		{"/to-metadata", true, "link-local"},
		{"/to-file", true, "http and https"},
		{"/to-other-host", false, "redirects to another host: http://localhost" + port + "/page"},
		{"/same-host", false, "landed"},
		{"/loop", true, "stopped after 3 redirects"},
	}
	for _, c := range cases {
		res := call(t, tool, srv.URL+c.path)
		if res.IsError != c.isError || !strings.Contains(res.Output, c.want) {
			t.Errorf("%s: IsError=%v %q; want IsError=%v with %q", c.path, res.IsError, res.Output, c.isError, c.want)
		}
	}
}

func TestFetchSizeCap(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	res := call(t, loopback(t, Options{MaxBytes: 1000}), srv.URL)
	if res.IsError || !strings.Contains(res.Output, "longer than 1000 bytes (fetch.max_bytes)") {
		t.Fatalf("want the page cut at 1000 bytes with a note, got %d bytes:\n%.300s", len(res.Output), res.Output)
	}
	if n := strings.Count(res.Output, "0123456789abcdef"); n != 1000/16 {
		t.Fatalf("%d copies of the pattern kept, want %d (1000 bytes)", n, 1000/16)
	}
	whole := call(t, loopback(t, Options{}), srv.URL)
	if strings.Contains(whole.Output, "fetch.max_bytes") {
		t.Fatal("a page within the default cap was cut")
	}
}

func TestFetchTimeout(t *testing.T) {
	for _, stage := range []string{"headers", "body"} {
		t.Run(stage, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if stage == "body" {
					w.Header().Set("Content-Type", "text/plain")
					fmt.Fprint(w, "first bytes")
					w.(http.Flusher).Flush()
				}
				<-r.Context().Done() // the client gives up
			}))
			defer srv.Close()
			start := time.Now()
			res := call(t, loopback(t, Options{Timeout: 300 * time.Millisecond}), srv.URL)
			if !res.IsError || !strings.Contains(res.Output, "timed out after 300ms (fetch.timeout)") {
				t.Fatalf("want a timeout, got %q", res.Output)
			}
			if d := time.Since(start); d > time.Minute {
				t.Fatalf("the timeout did not stop the fetch (%s)", d)
			}
		})
	}
}

func TestScope(t *testing.T) {
	tool := New(Options{})
	host, err := tool.Scope(json.RawMessage(`{"url":"https://Docs.Python.org/3/"}`))
	if err != nil || host != "docs.python.org" {
		t.Fatalf("Scope = %q, %v", host, err)
	}
	for _, args := range []string{`{"url":"http://127.0.0.1/"}`, `{"url":"ftp://x/"}`, `{"url":5}`, `{}`} {
		if _, err := tool.Scope(json.RawMessage(args)); err == nil {
			t.Errorf("Scope(%s) accepted it", args)
		}
	}
}
