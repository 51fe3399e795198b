package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// capNoteRoom is kept free for CapOutput's note, so a capped text stays
// within its cap and a second cap further on leaves it alone.
const capNoteRoom = 160

// CapOutput keeps the head (three quarters) and the tail of s and says in
// the middle how much was cut, within max bytes when max leaves room for
// the note (a few hundred bytes), never splitting a character: how every tool output, MCP result and !command output is
// cut before the model sees it. max <= 0 keeps s whole.
func CapOutput(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	keep := max - min(capNoteRoom, max/2)
	head := runeStart(s, keep*3/4)
	tail := len(s) - runeStart(s, len(s)-(keep-keep*3/4))
	cut := s[head : len(s)-tail]
	note := fmt.Sprintf("\n\n[... %d bytes (%d lines) cut by keel; narrow the request to see them ...]\n\n",
		len(cut), strings.Count(cut, "\n"))
	return s[:head] + note + s[len(s)-tail:]
}

// runeStart moves i back to the start of the UTF-8 character it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
