package ansi

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// skipContent lists the elements whose content bluemonday's policies drop
// along with the tags (its addDefaultSkipElementContent).
var skipContent = map[string]bool{
	"frame": true, "frameset": true, "iframe": true, "noembed": true,
	"noframes": true, "noscript": true, "nostyle": true, "object": true,
	"script": true, "style": true, "title": true,
}

// stripTags returns what bluemonday.StrictPolicy().Sanitize(s) returned,
// which glamour used before (keel patch; see third_party/glamour): every
// tag, comment and doctype removed, the content of script, style and the
// skipContent elements dropped, the rest of the text HTML-escaped. It walks
// the same golang.org/x/net/html tokens with the same rules, quirks
// included, so its output is byte for byte bluemonday's.
func stripTags(s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	var (
		b        strings.Builder
		skipping int64  // unclosed skipContent elements, as bluemonday counts
		skip     bool   // inside a skipContent element's content
		recent   string // the most recently started element, normalised
	)
	z := html.NewTokenizer(strings.NewReader(s))
	for z.Next() != html.ErrorToken {
		token := z.Token()
		name := normaliseElementName(token.Data)
		switch token.Type {
		case html.StartTagToken:
			recent = name
			if name == "script" || name == "style" {
				continue
			}
			if skipContent[token.Data] {
				skip = true
				skipping++
			}
		case html.EndTagToken:
			if recent == name {
				recent = ""
			}
			if name == "script" || name == "style" {
				continue
			}
			if skipContent[token.Data] {
				skipping--
				if skipping == 0 {
					skip = false
				}
			}
		case html.TextToken:
			if !skip && recent != "script" && recent != "style" {
				b.WriteString(token.String())
			}
		}
	}
	return b.String()
}

// normaliseElementName is bluemonday's: the name lower-cased, with
// anything outside printable ASCII quoted.
func normaliseElementName(str string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strconv.QuoteToASCII(str)), `"`), `"`)
}
