package mcp

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineFilter(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}`
	batch := `[{"jsonrpc":"2.0","method":"notifications/progress","params":{}}]`
	tests := []struct {
		name, in, pass, noise string
	}{
		{"messages only", msg + "\n" + msg + "\n", msg + "\n" + msg + "\n", ""},
		{"a banner first", "Loading config... done\n" + msg + "\n", msg + "\n", "Loading config... done\n"},
		{"a JSON log line is not JSON-RPC", `{"level":"info","msg":"up"}` + "\n" + msg + "\n", msg + "\n", `{"level":"info","msg":"up"}` + "\n"},
		{"blank lines are dropped", "\n\r\n" + msg + "\n", msg + "\n", ""},
		{"a batch passes", batch + "\n", batch + "\n", ""},
		{"an array of numbers does not", "[1,2]\n" + msg + "\n", msg + "\n", "[1,2]\n"},
		{"broken JSON", `{"jsonrpc":` + "\n" + msg + "\n", msg + "\n", `{"jsonrpc":` + "\n"},
		{"CRLF kept", msg + "\r\n", msg + "\r\n", ""},
		{"a last line without newline", "tail", "", "tail\n"},
		{"a message without newline at EOF", msg, msg, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var noise bytes.Buffer
			got, err := io.ReadAll(iotest.OneByteReader(newLineFilter(strings.NewReader(tt.in), &noise)))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.pass || noise.String() != tt.noise {
				t.Errorf("passed %q, noise %q; want %q, %q", got, noise.String(), tt.pass, tt.noise)
			}
		})
	}
}

func TestLineFilterLongMessage(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 300<<10) + `"}}` + "\n"
	var noise bytes.Buffer
	got, err := io.ReadAll(newLineFilter(strings.NewReader("banner\n"+long), &noise))
	if err != nil || string(got) != long || noise.String() != "banner\n" {
		t.Errorf("a message longer than the buffer: %d bytes passed (want %d), noise %q, err %v", len(got), len(long), noise.String(), err)
	}
}

// FuzzLineFilter: whatever the server writes, every line comes out on
// exactly one side, unchanged (apart from a newline added to noise).
func FuzzLineFilter(f *testing.F) {
	f.Add("Loading...\n{\"jsonrpc\":\"2.0\",\"id\":1}\n")
	f.Add("[{\"jsonrpc\":\"2.0\"}]\n\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		var noise bytes.Buffer
		got, err := io.ReadAll(newLineFilter(strings.NewReader(in), &noise))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.SplitAfter(string(got), "\n") {
			if l != "" && !isMessage([]byte(l)) {
				t.Fatalf("passed a line that is no message: %q", l)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(noise.String(), "\n"), "\n") {
			if isMessage([]byte(l)) {
				t.Fatalf("dropped a message as noise: %q", l)
			}
		}
		if len(got)+noise.Len() < len(strings.TrimSpace(in))/2 && strings.TrimSpace(in) != "" {
			// blank lines vanish; everything else is somewhere
			if len(got)+noise.Len() == 0 {
				t.Fatalf("lost %q", in)
			}
		}
	})
}
