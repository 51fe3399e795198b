package ansi

import (
	"testing"

	"github.com/microcosm-cc/bluemonday"
)

var stripCases = []string{
	"", "  ", "plain text", "a < b && c > d", "<b>bold</b> and <i>it</i>",
	"<div class=\"x\">block</div>", "<br/>line<br>", "<!-- note -->after",
	"<!DOCTYPE html><p>p</p>", "<script>alert(1)</script>shown",
	"<style>p{}</style>shown", "<title>t</title>body", "</title>x<title>y</title>z",
	"<iframe src=x>inner</iframe>out", "<noscript><b>n</b></noscript>s",
	"<SCRIPT>x</SCRIPT>y", "&amp; &lt;tag&gt; &quot;q&quot; &#39;", "\r\n<p>\r</p>",
	"<a href=\"https://x\">link</a>", "<details><summary>s</summary>d</details>",
	"<p>unclosed", "<<>>", "<img src=x onerror=alert(1)>", "text\u00a0nbsp",
	"<obJect>o</object>after", "<scr<script>ipt>", "<style>a</script>b</style>c",
}

func TestStripTagsMatchesBluemonday(t *testing.T) {
	p := bluemonday.StrictPolicy()
	for _, in := range stripCases {
		if got, want := stripTags(in), p.Sanitize(in); got != want {
			t.Errorf("stripTags(%q) = %q, bluemonday %q", in, got, want)
		}
	}
}

func FuzzStripTagsMatchesBluemonday(f *testing.F) {
	for _, in := range stripCases {
		f.Add(in)
	}
	p := bluemonday.StrictPolicy()
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := stripTags(in), p.Sanitize(in); got != want {
			t.Errorf("stripTags(%q) = %q, bluemonday %q", in, got, want)
		}
	})
}
