package discipline

import (
	"fmt"
	"hash/fnv"
	"testing"
)

func TestNormalizeArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b": 1, "a": "x"}`, `{"a":"x","b":1}`},
		{"{\n  \"path\" : \"a.go\",\n  \"opts\": {\"z\": true, \"y\": [1, 2.50]}\n}", `{"opts":{"y":[1,2.50],"z":true},"path":"a.go"}`},
		{`{"cmd": "a < b && c > d"}`, `{"cmd":"a < b && c > d"}`},
		{`  not json  `, `not json`},
		{`{"a":1} {"b":2}`, `{"a":1} {"b":2}`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := NormalizeArgs(tt.in); got != tt.want {
			t.Errorf("NormalizeArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if NormalizeArgs(`{"a":1,"b":2}`) != NormalizeArgs(`{ "b" : 2, "a" : 1 }`) {
		t.Error("key order or whitespace changed the normal form")
	}
}

func TestNormalizeError(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\n\n  main.go:12:5: undefined: foo\nmore", "main.go:N:N: undefined: foo"},
		{"open /tmp/go-build12345/b001/x.a: no such file", "open <tmp>: no such file"},
		{"panic at 0xc000012345 (pid 991)", "panic at <addr> (pid N)"},
		{"took 1.234s", "took N.Ns"},
		{"", ""},
	}
	for _, tt := range tests {
		got := NormalizeError(tt.in)
		if got != tt.want {
			t.Errorf("NormalizeError(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := NormalizeError(got); again != got {
			t.Errorf("not idempotent: %q -> %q", got, again)
		}
	}
	if NormalizeError("a.go:10: x") != NormalizeError("a.go:99: x") {
		t.Error("line numbers should not tell identical failures apart")
	}
}

func TestHash(t *testing.T) {
	first, again := Hash("a"), Hash("a")
	if first == Hash("b") || first != again || len(Hash("")) != 16 {
		t.Error("Hash is not a stable 16-hex-digit digest")
	}
}

func TestHashOutput(t *testing.T) {
	a := "ok  \tgithub.com/x/y\t0.123s\n[exit code 0, 1.4s]"
	b := "ok  \tgithub.com/x/y\t0.456s\n[exit code 0, 2.0s]"
	if HashOutput(a) != HashOutput(b) {
		t.Error("durations changed the hash of identical runs")
	}
	if HashOutput(a) == HashOutput("FAIL\tgithub.com/x/y\t0.123s\n[exit code 1, 1.4s]") {
		t.Error("a different result hashed the same")
	}
	if HashOutput("built /tmp/go-build1/a") != HashOutput("built /tmp/go-build2/a") {
		t.Error("temporary paths changed the hash")
	}
}

// hashOutputRef is HashOutput without its fast paths: both expressions
// always run, and the hash is the standard library's FNV-1a.
func hashOutputRef(output string) string {
	output = durationRE().ReplaceAllString(output, "<dur>")
	output = tmpPathRE().ReplaceAllString(output, "<tmp>")
	h := fnv.New64a()
	h.Write([]byte(output))
	return fmt.Sprintf("%016x", h.Sum64())
}

func FuzzHashOutputSameAsTheExpressions(f *testing.F) {
	for _, s := range []string{
		"", "ok", "ok\tgithub.com/x/y\t0.123s", "took 15ms", "12µs", "3.5h later", "1.s", "5 m",
		"built /tmp/go-build1/a", "/var/folders/x/y", `C:\Users\me\AppData\Local\Temp\go-build1\a`,
		"   1\tpackage p\n   2\tfunc F() {}\n", "0x1f 12ns/op", "/private/tmp/a:3", "99problems",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := HashOutput(s), hashOutputRef(s); got != want {
			t.Errorf("HashOutput(%q) = %s, the expressions give %s", s, got, want)
		}
	})
}
