package datalog

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/aymanbagabas/go-udiff"
)

// A file change's contents are stored compactly: the content before is
// DEFLATEd, the content after is a line edit script on the content before
// (DEFLATEd), which is a few bytes for an edit of a large file. Each is
// kept as it is when that is no larger. The encodings, in before_enc and
// after_enc:
const (
	encRaw   = ""
	encFlate = "f" // DEFLATE
	encEdits = "d" // DEFLATE of an edit script on before (after only)
)

// minEncode is the size below which a content is stored as it is: the
// encodings' overhead would eat what they save.
const minEncode = 128

// maxEditScript is the size above which after is not diffed: a diff of
// large contents costs more time than the bytes it saves are worth.
const maxEditScript = 4 << 20

// encodeContent returns b DEFLATEd, or b when that is not smaller.
func encodeContent(b []byte) ([]byte, string) {
	if len(b) < minEncode {
		return b, encRaw
	}
	z := deflate(b)
	if len(z) >= len(b) {
		return b, encRaw
	}
	return z, encFlate
}

// encodeAfter returns after as an edit script on before when that is
// smallest, else as encodeContent does. The script is checked by applying
// it, so a content the line diff cannot reproduce is stored whole. A
// script under an eighth of after is taken without compressing after
// whole (the round's commit waits for that).
func encodeAfter(before, after []byte) ([]byte, string) {
	if len(before) == 0 || len(after) < minEncode || len(before)+len(after) > maxEditScript {
		return encodeContent(after)
	}
	edits := udiff.Lines(string(before), string(after))
	if got, err := udiff.ApplyBytes(before, edits); err != nil || !bytes.Equal(got, after) {
		return encodeContent(after)
	}
	script := deflate(marshalEdits(edits))
	if len(script) < len(after)/8 {
		return script, encEdits
	}
	if z, enc := encodeContent(after); len(z) <= len(script) {
		return z, enc
	}
	return script, encEdits
}

// decodeContent reverses encodeContent and encodeAfter (before is the
// decoded content before, for an edit script).
func decodeContent(blob []byte, enc string, before []byte) ([]byte, error) {
	switch enc {
	case encRaw:
		return blob, nil
	case encFlate:
		return inflate(blob)
	case encEdits:
		raw, err := inflate(blob)
		if err != nil {
			return nil, err
		}
		edits, err := unmarshalEdits(raw)
		if err != nil {
			return nil, err
		}
		return udiff.ApplyBytes(before, edits)
	}
	return nil, fmt.Errorf("unknown content encoding %q (a newer keel wrote it)", enc)
}

// deflate compresses b: the default level, or the fastest for large
// contents (the round's commit waits for it).
func deflate(b []byte) []byte {
	level := flate.DefaultCompression
	if len(b) > 1<<20 {
		level = flate.BestSpeed
	}
	var buf bytes.Buffer
	buf.Grow(len(b) / 3)
	w, _ := flate.NewWriter(&buf, level) // the level is valid
	_, _ = w.Write(b)                    // a bytes.Buffer does not fail
	_ = w.Close()
	return buf.Bytes()
}

func inflate(b []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(b))
	defer r.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("decompress a stored file content: %w", err)
	}
	return out, nil
}

// marshalEdits encodes edits as varints: start, end, length, then the new
// text, for each.
func marshalEdits(edits []udiff.Edit) []byte {
	var out []byte
	for _, e := range edits {
		out = binary.AppendUvarint(out, uint64(e.Start))
		out = binary.AppendUvarint(out, uint64(e.End))
		out = binary.AppendUvarint(out, uint64(len(e.New)))
		out = append(out, e.New...)
	}
	return out
}

var errBadScript = errors.New("a stored edit script is damaged")

func unmarshalEdits(b []byte) ([]udiff.Edit, error) {
	var edits []udiff.Edit
	for len(b) > 0 {
		var v [3]uint64
		for i := range v {
			x, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errBadScript
			}
			v[i], b = x, b[n:]
		}
		if v[2] > uint64(len(b)) || v[0] > v[1] {
			return nil, errBadScript
		}
		edits = append(edits, udiff.Edit{Start: int(v[0]), End: int(v[1]), New: string(b[:v[2]])})
		b = b[v[2]:]
	}
	return edits, nil
}
