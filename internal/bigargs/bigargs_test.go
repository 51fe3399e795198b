package bigargs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func note(e Elided, path string) string {
	return fmt.Sprintf("cut %s: %d bytes sha256 %s path %s", e.Key, e.Bytes, e.SHA256, path)
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestShorten(t *testing.T) {
	content := strings.Repeat("line \"quoted\" é\n", 400)
	enc, _ := json.Marshal(map[string]any{"path": "a/b.go", "content": content, "n": []int{1, 2}})
	cases := []struct {
		name, args string
		limit      int
		changed    bool
		want       []string // substrings of the result
	}{
		{"small args are kept", `{"path":"x","content":"hi"}`, 1000, false, []string{`"content":"hi"`}},
		{"a long value is cut, the rest kept", string(enc), 1000, true,
			[]string{`"path":"a/b.go"`, `"n":[1,2]`, fmt.Sprintf("cut content: %d bytes sha256 %s path a/b.go", len(content), sum(content))}},
		{"not an object: one notice", `["` + strings.Repeat("x", 2000) + `"]`, 1000, true, []string{`"elided_by_keel":"cut : 2004 bytes`}},
		{"broken JSON: one notice", `{"content":"` + strings.Repeat("x", 2000), 1000, true, []string{`elided_by_keel`}},
		{"many small members still too long: one notice", `{"a":[` + strings.Repeat("1,", 1000) + `1]}`, 1000, true, []string{`elided_by_keel`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := Shorten(c.args, c.limit, 256, note)
			if changed != c.changed {
				t.Fatalf("changed = %v, want %v", changed, c.changed)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("not valid JSON: %.300s", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%.400s\ndoes not hold %q", got, w)
				}
			}
		})
	}
}

// Digest agrees with encoding/json's decoding, escapes and bad UTF-8
// included.
func FuzzDigest(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, "\"\xff\xfe\"", `"\"\\\/\b\f\r\t"`, `"\uDFFF\uD800"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		var v string
		if json.Unmarshal([]byte(lit), &v) != nil || len(lit) < 2 || lit[0] != '"' || stringEnd(lit, 0) != len(lit) {
			return
		}
		n, got := Digest(lit)
		if n != len(v) || got != sum(v) {
			t.Fatalf("Digest(%q) = %d %s, encoding/json decodes %d bytes %s", lit, n, got, len(v), sum(v))
		}
	})
}

// Shorten's result is always valid JSON, and an object's kept members
// decode as they did.
func FuzzShorten(f *testing.F) {
	for _, s := range []string{`{"path":"p","content":"` + strings.Repeat("ab", 80) + `"}`, `{"a":{"b":"}"},"c":[1,"]"]}`, `{}`, `[1]`, `{"a" : "x" , "b":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		got, changed := Shorten(args, 64, 16, note)
		if !changed {
			if got != args {
				t.Fatal("unchanged but different")
			}
			return
		}
		if !json.Valid([]byte(got)) {
			t.Fatalf("Shorten(%q) = %q: not valid JSON", args, got)
		}
		var in, out map[string]json.RawMessage
		if json.Unmarshal([]byte(args), &in) != nil || json.Unmarshal([]byte(got), &out) != nil {
			return
		}
		if _, whole := out["elided_by_keel"]; whole && len(out) == 1 {
			return
		}
		for k, v := range in {
			if len(v) <= 16 && string(out[k]) != string(v) {
				t.Fatalf("member %q changed: %s -> %s", k, v, out[k])
			}
		}
	})
}
