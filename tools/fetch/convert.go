package fetch

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// readCapped reads at most max bytes of r and reports whether there was
// more.
func readCapped(r io.Reader, max int64) ([]byte, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(b)) > max {
		return b[:max], true, err
	}
	return b, false, err
}

// kind is what a response holds, from its Content-Type (or, without one,
// its first bytes).
func kind(header string, body []byte) (mediaType string, isHTML, isText bool) {
	if header == "" {
		header = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(header, ";")[0]))
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return mt, true, true
	case strings.HasPrefix(mt, "text/"), mt == "application/json", mt == "application/xml",
		mt == "application/javascript", mt == "application/x-ndjson", mt == "application/yaml",
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return mt, false, true
	}
	return mt, false, false
}

// utf8Body decodes body to UTF-8 from the charset its header or its own
// <meta> names.
func utf8Body(body []byte, contentType string) []byte {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return body
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return body
	}
	return out
}

// page is a fetched document turned into markdown.
type page struct {
	title    string
	markdown string
}

// toMarkdown converts an HTML document: its main content (readability),
// or the whole body when full is set or no main content is found.
func toMarkdown(doc []byte, pageURL *url.URL, full bool) (page, error) {
	root, err := html.Parse(bytes.NewReader(doc))
	if err != nil {
		return page{}, fmt.Errorf("the page's HTML cannot be read: %v", err)
	}
	var p page
	node := root
	if !full {
		if art, err := readability.FromDocument(root, pageURL); err == nil && art.Node != nil { // it works on a copy
			node, p.title = art.Node, art.Title()
		}
	}
	if p.title == "" {
		p.title = titleOf(root)
	}
	md, err := markdownConverter().ConvertNode(node, converter.WithDomain(pageURL.Scheme+"://"+pageURL.Host))
	if err != nil {
		return page{}, fmt.Errorf("the page cannot be converted to markdown: %v", err)
	}
	p.markdown = strings.TrimSpace(string(md))
	return p, nil
}

// markdownConverter is html-to-markdown with tables and strikethrough on
// top of CommonMark. Text is not escaped: a model reads it, and
// "ghp\_…" would hide a token's shape from the datalog's redaction.
func markdownConverter() *converter.Converter {
	return converter.NewConverter(converter.WithEscapeMode(converter.EscapeModeDisabled), converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin(),
	))
}

// titleOf is the document's <title>, "" when it has none.
func titleOf(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
		return strings.TrimSpace(n.FirstChild.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := titleOf(c); t != "" {
			return t
		}
	}
	return ""
}
