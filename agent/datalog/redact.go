package datalog

import (
	"encoding/json"
	"sort"
	"strings"
)

// minSecretLen keeps short values ("1", "yes") from blanking ordinary text.
const minSecretLen = 6

// redactor replaces secret values with [REDACTED:NAME].
type redactor struct {
	r *strings.Replacer // nil when there is nothing to hide
}

// secretName reports whether an environment variable's name marks its
// value as a secret.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	return strings.HasSuffix(n, "_KEY") || strings.HasSuffix(n, "_TOKEN") ||
		strings.HasSuffix(n, "_SECRET") || strings.Contains(n, "PASSWORD")
}

// newRedactor collects secrets from environ ("NAME=value") and from the
// explicit name→value map.
func newRedactor(environ []string, explicit map[string]string) *redactor {
	secrets := map[string]string{} // value → name
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if ok && secretName(name) && len(val) >= minSecretLen {
			secrets[val] = name
		}
	}
	for name, val := range explicit {
		if val != "" {
			secrets[val] = name
		}
	}
	return &redactor{r: buildReplacer(secrets)}
}

// buildReplacer orders longer values first so a secret containing another
// is replaced whole. Each value's JSON-escaped form is covered too, since
// arguments and messages are stored as JSON.
func buildReplacer(secrets map[string]string) *strings.Replacer {
	type pair struct{ val, name string }
	var ps []pair
	for v, n := range secrets {
		ps = append(ps, pair{v, n})
		if esc := jsonEscape(v); esc != v {
			ps = append(ps, pair{esc, n})
		}
	}
	if len(ps) == 0 {
		return nil
	}
	sort.Slice(ps, func(i, j int) bool {
		if len(ps[i].val) != len(ps[j].val) {
			return len(ps[i].val) > len(ps[j].val)
		}
		return ps[i].val < ps[j].val
	})
	args := make([]string, 0, 2*len(ps))
	for _, p := range ps {
		args = append(args, p.val, "[REDACTED:"+p.name+"]")
	}
	return strings.NewReplacer(args...)
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// String redacts s.
func (r *redactor) String(s string) string {
	if r == nil || r.r == nil || s == "" {
		return s
	}
	return r.r.Replace(s)
}

// Bytes redacts b.
func (r *redactor) Bytes(b []byte) []byte {
	if r == nil || r.r == nil || len(b) == 0 {
		return b
	}
	return []byte(r.r.Replace(string(b)))
}
