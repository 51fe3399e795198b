package datalog

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestContentCodecRoundTrips(t *testing.T) {
	big := strings.Repeat("func f() { return 42 }\n", 5000)
	edited := strings.Replace(big, "return 42", "return 43", 1)
	cases := []struct {
		name          string
		before, after string
		wantAfterEnc  string
	}{
		{"empty", "", "", encRaw},
		{"small", "a\n", "b\n", encRaw},
		{"a new file", "", big, encFlate},
		{"one line of a large file", big, edited, encEdits},
		{"a rewrite", big, strings.Repeat("something else entirely\n", 3000), ""},
		{"no final newline", big + "tail", edited + "tail2", encEdits},
		{"binary", string(bytes.Repeat([]byte{0, 1, 2, 255}, 100)), string(bytes.Repeat([]byte{0, 9, 2, 255}, 100)), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, benc := encodeContent([]byte(c.before))
			a, aenc := encodeAfter([]byte(c.before), []byte(c.after))
			if c.wantAfterEnc != "" && aenc != c.wantAfterEnc {
				t.Errorf("after encoded as %q, want %q", aenc, c.wantAfterEnc)
			}
			gotB, err := decodeContent(b, benc, nil)
			if err != nil || string(gotB) != c.before {
				t.Fatalf("before did not round-trip (%q): %v", benc, err)
			}
			gotA, err := decodeContent(a, aenc, gotB)
			if err != nil || string(gotA) != c.after {
				t.Fatalf("after did not round-trip (%q): %v", aenc, err)
			}
		})
	}
}

// TestOneLineEditIsStoredSmall: the point of the codec, a one-line edit
// of a 100 KB file costs well under 1 KB for its content after.
func TestOneLineEditIsStoredSmall(t *testing.T) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "line %d of a source file %x\n", i, i*7919)
	}
	before := sb.String()
	after := strings.Replace(before, "line 2000 ", "line two thousand ", 1)
	a, enc := encodeAfter([]byte(before), []byte(after))
	if enc != encEdits || len(a) > 200 {
		t.Errorf("a one-line edit of %d bytes is stored as %d bytes (%q), want an edit script under 200", len(after), len(a), enc)
	}
}

func TestDecodeRejectsDamage(t *testing.T) {
	if _, err := decodeContent([]byte("junk"), "z", nil); err == nil {
		t.Error("an unknown encoding decoded")
	}
	if _, err := decodeContent([]byte("not deflate at all"), encFlate, nil); err == nil {
		t.Error("damaged DEFLATE decoded")
	}
	outOfRange := deflate(marshalEdits([]udiff.Edit{{Start: 5, End: 999, New: "x"}}))
	if _, err := decodeContent(outOfRange, encEdits, []byte("abc")); err == nil {
		t.Error("an edit script past the content's end decoded")
	}
}

func FuzzContentCodec(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nB\nc\n"))
	f.Add([]byte(strings.Repeat("x\n", 200)), []byte(strings.Repeat("x\n", 199)+"y"))
	f.Add([]byte{}, []byte("new"))
	f.Fuzz(func(t *testing.T, before, after []byte) {
		b, benc := encodeContent(before)
		a, aenc := encodeAfter(before, after)
		gotB, err := decodeContent(b, benc, nil)
		if err != nil || !bytes.Equal(gotB, before) {
			t.Fatalf("before: %v", err)
		}
		gotA, err := decodeContent(a, aenc, gotB)
		if err != nil || !bytes.Equal(gotA, after) {
			t.Fatalf("after (%q): %v", aenc, err)
		}
		_, _ = decodeContent(after, encEdits, before) // damage must not panic
		_, _ = unmarshalEdits(after)
	})
}
