package datalog

import (
	"sort"
	"strings"

	"github.com/keel-dev/keel/internal/lazyre"
)

// withhold marks the changes whose content before (or path) undo cannot
// write back because keel stored it redacted: it held a secret. Undo
// needs a change's content before only to restore it, so it judges each
// file on its own (a later change's redacted content before is never
// written: the first change's is), and never writes a redaction mark.
func withhold(changes []FileChange) {
	for i := range changes {
		c := &changes[i]
		switch {
		case c.PathRedacted:
			c.PathWithheld = true
			c.Withheld = "its path held " + secretNames(c) + ", which keel stores only redacted, so keel cannot find it: restore it from git or by hand"
		case c.SplicesRedacted:
			c.Withheld = "the text keel replaced in it held " + secretNames(c) + ", which keel stores only redacted: restore it from git or by hand"
		case c.Existed && c.BeforeRedacted && len(c.Splices) == 0:
			c.Withheld = "its content before held " + secretNames(c) + ", which keel stores only redacted: restore it from git or by hand"
		}
	}
}

// secretNames is "a secret (NAME, ...)" from the redaction marks of c's
// stored path, content before and splices.
func secretNames(c *FileChange) string {
	names := map[string]bool{}
	for _, src := range [][]byte{[]byte(c.Path), c.Before, c.Splices} {
		for _, m := range markRe().FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
	}
	if len(names) == 0 {
		return "a secret"
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return "a secret (" + strings.Join(list, ", ") + ")"
}

// markRe finds the redaction marks redactor writes (see markName).
var markRe = lazyre.New(`\[REDACTED:([A-Za-z0-9_.\-]+)\]`)
