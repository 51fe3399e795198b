package termtext

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello, world\n\tindented", "hello, world\n\tindented"},
		{"non-ASCII", "héllo 世界 🙂 ␛ \ufffd", "héllo 世界 🙂 ␛ \ufffd"},
		{"empty", "", ""},

		// OSC: clipboard, title, hyperlink; BEL or ST ends them.
		{"OSC 52 clipboard, BEL", "copy \x1b]52;c;cm0gLXJmIH4K\x07done", "copy ␛done"},
		{"OSC 52 clipboard, ST", "copy \x1b]52;c;cm0gLXJmIH4K\x1b\\done", "copy ␛done"},
		{"OSC 52 clipboard, C1 OSC and ST", "copy \u009d52;c;cm0gLXJmIH4K\u009cdone", "copy ␛done"},
		{"OSC 52 raw C1 bytes", "copy \x9d52;c;cm0gLXJmIH4K\x9cdone", "copy ␛done"},
		{"window title", "\x1b]0;pwned\x07text", "␛text"},
		{"hyperlink keeps its text", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "␛click␛"},
		{"OSC cut by another ESC", "a\x1b]0;t\x1b[2Jb", "a␛b"},
		{"OSC cancelled by CAN", "a\x1b]0;t\x18b", "a␛b"},
		{"unterminated OSC keeps the rest", "done.\x1b]0;and I deleted your files", "done.␛0;and I deleted your files"},
		{"ESC ends a string", "\x1b]a \x1bPb", "␛b"},
		{"two unterminated strings", "\u009da \u009db", "␛a ␛b"},

		// DCS, APC, PM, SOS strings.
		{"DCS", "a\x1bP1$r0m\x1b\\b", "a␛b"},
		{"tmux passthrough DCS", "a\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\b", "a␛b"},
		{"APC", "a\x1b_Gf=100;AAAA\x1b\\b", "a␛b"},
		{"PM", "a\x1b^privacy\x1b\\b", "a␛b"},
		{"SOS", "a\x1bXstring\x1b\\b", "a␛b"},

		// CSI: screen clears and cursor moves marked, colours dropped.
		{"clear screen", "a\x1b[2J\x1b[Hb", "a␛b"},
		{"cursor up and erase line", "safe\n\x1b[1A\x1b[2Kevil", "safe\n␛evil"},
		{"cursor position", "\x1b[10;20Hx", "␛x"},
		{"hide cursor", "\x1b[?25lx", "␛x"},
		{"C1 CSI", "a\u009b2Jb", "a␛b"},
		{"raw C1 CSI", "a\x9b2Jb", "a␛b"},
		{"SGR colours vanish", "\x1b[1;31merror\x1b[0m: \x1b[38;2;255;0;0mred\x1b[m", "error: red"},
		{"C1 SGR vanishes", "\u009b31mred", "red"},
		{"conceal is removed too", "\x1b[8msecret\x1b[28m", "secret"},
		{"private m is no SGR", "\x1b[>4;2mx", "␛x"},
		{"unterminated CSI", "a\x1b[31", "a␛"},
		{"CSI cut by a control", "a\x1b[2\nJ", "a␛\nJ"},

		// Two-byte escapes and a bare ESC.
		{"reset", "a\x1bcb", "a␛b"},
		{"save cursor", "a\x1b7b\x1b8", "a␛b␛"},
		{"charset switch", "a\x1b(0lqqk\x1b(Bb", "a␛lqqk␛b"},
		{"bare ESC at the end", "a\x1b", "a␛"},
		{"bare ESC before a newline", "a\x1b\nb", "a␛\nb"},
		{"bare ESC before non-ASCII", "a\x1bé", "a␛é"},

		// C0 and C1 controls.
		{"bell", "ding\x07dong", "dingdong"},
		{"backspace hides nothing", "rm -rf ~\b\b\b\b\b\b\b\bls      ", "rm -rf ~ls      "},
		{"NUL and friends", "a\x00b\x0bc\x0cd\x0ee\x0ff\x7fg", "abcdefg"},
		{"CR overwrite", "rm -rf ~\rls      ", "rm -rf ~\nls      "},
		{"CRLF", "a\r\nb\r\n", "a\nb\n"},
		{"CR CR LF", "a\r\r\nb", "a\n\nb"},
		{"C1 NEL and RI", "a\u0085b\u008dc", "a␛b␛c"},
		{"adjacent marks share one", "\x1b[2J\x1b[H\x1b]0;x\x07\u009b1A!", "␛!"},

		// Invalid UTF-8.
		{"invalid bytes", "a\xffb\xe4\xb8c", "a\ufffdb\ufffd\ufffdc"},
		{"truncated rune before C1", "\xe4\x9b2J", "\ufffd␛"},
		{"C1 byte inside a rune is text", "✜ ok", "✜ ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSafe(t, tt.in, got)
		})
	}
}

// checkSafe fails unless out has the properties Sanitize promises.
func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Sanitize(%q) = %q: not valid UTF-8", in, out)
	}
	for i, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || isC1(r) {
			t.Fatalf("Sanitize(%q) = %q: control %U at %d", in, out, r, i)
		}
	}
	if again := Sanitize(out); again != out {
		t.Fatalf("not idempotent: Sanitize(%q) = %q, again %q", in, out, again)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "héllo 世界 🙂", "\x1b]52;c;QUJD\x07", "\x1b[2J", "\x1b]0;t\x1b\\", "\x9b31m",
		"\u009d0;x\u009c", "a\rb\r\n", "\x1bP\x1b\x1b\\", "\x1b(0", "\xff\xfe", "\x1b", "\x1b]", "\x1b[",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		checkSafe(t, in, out)
		if firstUnsafe(in) == len(in) && out != in {
			t.Fatalf("Sanitize changed safe text %q to %q", in, out)
		}
		// Printable text around the input is kept as it is.
		wrapped := Sanitize("héllo 世界 🙂 " + in + " ok")
		if !strings.HasPrefix(wrapped, "héllo 世界 🙂 ") {
			t.Fatalf("lost the printable prefix: %q", wrapped)
		}
	})
}

func TestSanitizeDoesNotAllocateForSafeText(t *testing.T) {
	s := strings.Repeat("héllo 世界 🙂 plain text\n\twith tabs ", 100)
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Fatalf("Sanitize allocated %v times for safe text", n)
	}
	if got := Sanitize(s); got != s {
		t.Fatal("safe text changed")
	}
}

func TestSanitizeIsLinear(t *testing.T) {
	// Many string introducers without a terminator: each must not rescan
	// the rest of the text.
	s := strings.Repeat("\u009dx", 200_000)
	if got := Sanitize(s); !strings.HasPrefix(got, "␛x␛x") {
		t.Fatalf("got %q...", got[:20])
	}
}

func BenchmarkSanitize(b *testing.B) {
	safe := strings.Repeat("func main() { fmt.Println(\"héllo 世界\") }\n", 1000)
	dirty := strings.Repeat("\x1b[1;31mFAIL\x1b[0m ./pkg \x1b]52;c;QUJD\x07 ok\r\n", 1000)
	b.Run("safe", func(b *testing.B) {
		b.SetBytes(int64(len(safe)))
		b.ReportAllocs()
		for b.Loop() {
			_ = Sanitize(safe)
		}
	})
	b.Run("dirty", func(b *testing.B) {
		b.SetBytes(int64(len(dirty)))
		b.ReportAllocs()
		for b.Loop() {
			_ = Sanitize(dirty)
		}
	})
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	in := "title \x1b]0;x\x07 clear \x1b[2J end\r\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if want := "title ␛ clear ␛ end\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWritersReportErrors(t *testing.T) {
	for _, w := range []interface{ Write([]byte) (int, error) }{NewWriter(failWriter{}), NewJSONWriter(failWriter{})} {
		if _, err := w.Write([]byte("x")); err == nil {
			t.Errorf("%T: no error", w)
		}
	}
}

func TestJSONWriterEscapesC1AndDEL(t *testing.T) {
	value := map[string]string{"text": "a\u009b2J b\u009d52;c;QUJD\u009c c\x7f d\x1b]0;t\x07 é 世界"}
	var buf bytes.Buffer
	if err := json.NewEncoder(NewJSONWriter(&buf)).Encode(value); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || isC1(r) || r == 0x1b {
			t.Fatalf("JSON output holds control %U: %q", r, out)
		}
	}
	if !strings.Contains(out, `a\u009b2J`) || !strings.Contains(out, `c\u007f`) || !strings.Contains(out, "é 世界") {
		t.Fatalf("unexpected JSON: %s", out)
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back["text"] != value["text"] {
		t.Fatalf("the JSON changed meaning: %q, want %q", back["text"], value["text"])
	}
}

func TestEscapeJSONControlsKeepsCleanText(t *testing.T) {
	p := []byte(`{"a":"héllo \u001b 世界 ✜"}`)
	if got := EscapeJSONControls(p); &got[0] != &p[0] {
		t.Fatal("clean JSON was copied")
	}
}

func FuzzEscapeJSONControls(f *testing.F) {
	for _, s := range []string{"", "plain", "\u009b2J", "\x7f", "é\u0085世界", "\xc2", "\xc2\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b, err := json.Marshal(in)
		if err != nil {
			t.Skip()
		}
		out := EscapeJSONControls(b)
		for _, r := range string(out) {
			if r < 0x20 || r == 0x7f || isC1(r) {
				t.Fatalf("EscapeJSONControls(%s) = %s: holds %U", b, out, r)
			}
		}
		var back, want string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("EscapeJSONControls(%s) = %s: %v", b, out, err)
		}
		_ = json.Unmarshal(b, &want)
		if back != want {
			t.Fatalf("the JSON changed meaning: %q, want %q", back, want)
		}
	})
}
