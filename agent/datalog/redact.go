package datalog

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/keel-dev/keel/internal/secretscan"
)

// minSecretLen keeps short values ("1", "yes") from blanking ordinary text.
const minSecretLen = 6

// redactor replaces secret values with [REDACTED:NAME]: the values of
// secret environment variables and keel's API keys, then every
// token-shaped secret (secretscan: gitleaks' rules, the mark naming the
// rule). Every text the writer stores goes through it (see
// redact_records.go), except the session id, which keel makes; the
// recall index and exports are built from what is stored.
type redactor struct {
	r *strings.Replacer // nil when there is nothing to hide
	// memo holds one round's redactions of long strings: a call's
	// arguments and result come in both its message and its row, and
	// scanning each once halves a big write's cost. Nil outside a round.
	memo map[string]string
}

// memoMin is the length from which a round remembers a redaction.
const memoMin = 4 << 10

// forRound is r with a memo for one round's records.
func (r *redactor) forRound() *redactor {
	rr := &redactor{memo: map[string]string{}}
	if r != nil {
		rr.r = r.r
	}
	return rr
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
// is replaced whole. Each value's JSON-escaped forms are covered too
// (see secretForms), since arguments, messages, plans and raw bodies are
// JSON, sometimes JSON inside JSON.
func buildReplacer(secrets map[string]string) *strings.Replacer {
	type pair struct{ val, name string }
	var ps []pair
	for v, n := range secrets {
		for _, f := range secretForms(v) {
			ps = append(ps, pair{f, markName(n)})
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

// escapeDepth is how many times over a secret may be JSON-escaped where
// it is stored: a JSON file's string (1) in write_file's arguments (2) in
// a captured request body (3).
const escapeDepth = 3

// secretForms returns v and the ways JSON encoders write it inside a
// string, escaped up to escapeDepth times: with or without HTML escaping
// (<, >, & as \u003c...) and with "/" as "\/" (PHP and others). Each
// form appears once; a value without characters to escape has one.
func secretForms(v string) []string {
	seen := map[string]bool{v: true}
	out := []string{v}
	level := []string{v}
	for range escapeDepth {
		var next []string
		for _, f := range level {
			for _, html := range []bool{true, false} {
				e := jsonEscape(f, html)
				for _, form := range []string{e, strings.ReplaceAll(e, "/", `\/`)} {
					if !seen[form] {
						seen[form] = true
						out = append(out, form)
						next = append(next, form)
					}
				}
			}
		}
		level = next
	}
	return out
}

// jsonEscape returns s as it appears between the quotes of a JSON string.
func jsonEscape(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s) // a string always encodes
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// markName makes a secret's name safe inside the mark: the mark lands in
// JSON text and must neither break it nor end early, so only letters,
// digits, "_", "-" and "." are kept.
func markName(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '_'
	}, name)
	if clean == "" {
		return "SECRET"
	}
	return clean
}

// String redacts s.
func (r *redactor) String(s string) string {
	if s == "" {
		return s
	}
	if r != nil && r.memo != nil && len(s) >= memoMin {
		if red, ok := r.memo[s]; ok {
			return red
		}
		red := r.redact(s)
		r.memo[s] = red
		return red
	}
	return r.redact(s)
}

func (r *redactor) redact(s string) string {
	if r != nil && r.r != nil {
		s = r.r.Replace(s)
	}
	s, _ = secretscan.Redact(s)
	return s
}

// Bytes redacts b.
func (r *redactor) Bytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	return []byte(r.String(string(b)))
}

// Content redacts a file's content and says whether it held a secret. A
// content without one is returned as is, byte for byte.
func (r *redactor) Content(b []byte) ([]byte, bool) {
	if len(b) == 0 {
		return b, false
	}
	s := string(b)
	red := r.String(s)
	if red == s {
		return b, false
	}
	return []byte(red), true
}
