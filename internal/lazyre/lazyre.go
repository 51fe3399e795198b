// Package lazyre compiles a regular expression on its first use. Every
// keel process links every package, so a pattern compiled in a package
// variable costs each start (keel --version, the sandbox helper before
// each command) its compilation, used or not.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and then
// returns the same *regexp.Regexp. expr must be valid: like
// regexp.MustCompile, the first call panics otherwise.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
