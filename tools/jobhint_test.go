package tools

import (
	"strings"
	"testing"
)

func TestDetaches(t *testing.T) {
	for cmd, want := range map[string]bool{
		"make build > build.log 2>&1 &":    true,
		"python -m http.server 8000 &":     true,
		"nohup ./server > out.log":         true,
		"cd app && setsid npm start":       true,
		"sleep 100 & disown":               true,
		"server & sleep 1; curl localhost": true,
		"go test ./... && echo ok":         false,
		"make 2>&1 | tail -n 20":           false,
		"cmd &> out.log":                   false,
		"cmd |& tee log":                   false,
		"echo 'a & b'":                     false,
		`grep -n "nohup" run.sh`:           false,
		"echo a\\&b":                       false,
		"cat <&3":                          false,
		"ls":                               false,
	} {
		if got := detaches(cmd); got != want {
			t.Errorf("detaches(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func FuzzDetaches(f *testing.F) {
	for _, s := range []string{"a &", "a && b", "nohup x", "'&'", "a\\&", "x |& y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		got := detaches(cmd) // never panics, whatever the quoting
		if got && !strings.Contains(cmd, "&") && !strings.Contains(cmd, "nohup") && !strings.Contains(cmd, "setsid") && !strings.Contains(cmd, "disown") {
			t.Fatalf("detaches(%q) with no & and no detaching command", cmd)
		}
	})
}
