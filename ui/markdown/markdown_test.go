package markdown

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// sgrBefore matches an SGR sequence directly before a word.
func sgrBefore(line, word string) string {
	m := regexp.MustCompile(`(\x1b\[[0-9;]*m)` + regexp.QuoteMeta(word)).FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestMarkdownHighlightsCode: a fenced Go block comes out highlighted (the
// keyword and the function name in different colours), with chroma's
// registries built on this first use rather than at start-up.
func TestMarkdownHighlightsCode(t *testing.T) {
	for _, style := range []string{"dark", "light"} {
		t.Run(style, func(t *testing.T) {
			lines := New(style).Render("Look:\n\n```go\nfunc main() { return }\n```\n", 60)
			var code string
			for _, l := range lines {
				if strings.Contains(ansi.Strip(l), "func main()") {
					code = l
				}
			}
			if code == "" {
				t.Fatalf("no code line in %q", lines)
			}
			kw, name := sgrBefore(code, "func"), sgrBefore(code, "main")
			if kw == "" || name == "" || kw == name {
				t.Fatalf("func and main are not coloured apart (%q, %q) in %q", kw, name, code)
			}
		})
	}
}

// TestMarkdownStripsHTML: raw HTML in an answer shows as its text only,
// a script block's content dropped (glamour's sanitiser, with bluemonday's
// rules since keel's patch).
func TestMarkdownStripsHTML(t *testing.T) {
	md := "Some <b>bold</b> &amp; done.\n\n<div>\n  <p>block &lt;here&gt;</p>\n</div>\n\n<script>\nalert(1)\n</script>\n\nend\n"
	got := ansi.Strip(strings.Join(New("dark").Render(md, 60), "\n"))
	for _, want := range []string{"Some bold & done.", "block <here>", "end"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	for _, gone := range []string{"<b>", "alert", "<div>", "<p>"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q should be stripped:\n%s", gone, got)
		}
	}
}
