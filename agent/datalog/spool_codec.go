package datalog

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
)

// A spool entry is encoded field by field, not with encoding/json: a
// round's encoding sits between its end and the next request, and
// reflection cost 8 µs a round and 0.25 ms on a process's first round.
// Each record lists its fields once (its code method), for the encoder
// and the decoder alike; TestSpoolCodecKeepsEveryField fails when a field
// is added to a record and not to its list.

// spoolVersion is the first byte of an entry's payload: a spool written
// by another version of the format ends the file for replay.
const spoolVersion = 1

// codec visits an entry's fields: spoolEncoder writes them, spoolDecoder
// reads them into place.
type codec interface {
	str(*string)
	int(*int)
	i64(*int64)
	u32(*uint32)
	bool(*bool)
	f64(*float64)
	bytes(*[]byte) // nil and empty stay apart
	time(*time.Time)
	count(n int) int // a slice's length: the encoder writes n, the decoder reads it
	ok() bool        // false once the decoder has failed
}

func (e *spoolEntry) code(c codec) {
	r := &e.Round
	r.Round.code(c)
	c.bool(&r.HistoryReset)
	codeSlice(c, &r.ToolCalls, (*ToolCall).code)
	codeSlice(c, &r.Interventions, (*Intervention).code)
	codeSlice(c, &r.Plans, (*PlanSnapshot).code)
	codeSlice(c, &r.Transitions, (*StateTransition).code)
	codeSlice(c, &r.FileChanges, (*FileChange).code)
	c.bytes(&r.Request)
	c.bytes(&r.Response)
	codeSlice(c, &e.Messages, func(m *string, c codec) { c.str(m) })
	c.i64(&e.At)
}

// codeSlice codes a slice's length, then each element with each. The
// decoder grows the slice as elements decode, so a damaged length costs
// no more memory than the elements that are there.
func codeSlice[T any](c codec, s *[]T, each func(*T, codec)) {
	n := c.count(len(*s))
	if n == len(*s) { // encoding, or an empty slice
		for i := range *s {
			each(&(*s)[i], c)
		}
		return
	}
	*s = make([]T, 0, min(n, 16))
	for range n {
		var v T
		each(&v, c)
		if !c.ok() {
			return
		}
		*s = append(*s, v)
	}
}

func (r *Round) code(c codec) {
	c.str(&r.SessionID)
	c.int(&r.Seq)
	c.int(&r.TaskSeq)
	c.int(&r.RequestMessages)
	c.int(&r.RequestTokens)
	c.i64((*int64)(&r.FirstToken))
	c.i64((*int64)(&r.Duration))
	c.str(&r.FinishReason)
	c.int(&r.TokensIn)
	c.int(&r.TokensOut)
	c.int(&r.TokensCached)
	c.f64(&r.Cost)
	c.int(&r.Retries)
	c.time(&r.Started)
}

func (t *ToolCall) code(c codec) {
	c.str(&t.SessionID)
	c.int(&t.Round)
	c.int(&t.Index)
	c.str(&t.CallID)
	c.str(&t.Name)
	c.str(&t.Arguments)
	c.str(&t.Result)
	c.int(&t.ResultSize)
	c.bool(&t.IsError)
	c.i64((*int64)(&t.Duration))
	c.str(&t.Permission)
	c.str(&t.DecidedBy)
	c.bool(&t.Verified)
}

func (i *Intervention) code(c codec) {
	c.str(&i.SessionID)
	c.int(&i.Round)
	c.int(&i.Index)
	c.str(&i.Kind)
	c.int(&i.AtToolCall)
	c.bytes((*[]byte)(&i.Figures))
	c.str(&i.Message)
	c.str(&i.Reply)
	c.str(&i.Why)
	c.str(&i.Action)
}

func (p *PlanSnapshot) code(c codec) {
	c.str(&p.SessionID)
	c.int(&p.Round)
	c.int(&p.Attempt)
	c.str(&p.Status)
	c.bytes((*[]byte)(&p.Plan))
	c.time(&p.At)
}

func (t *StateTransition) code(c codec) {
	c.str(&t.SessionID)
	c.int(&t.Round)
	c.str(&t.From)
	c.str(&t.To)
	c.str(&t.Detail)
	c.time(&t.At)
}

func (f *FileChange) code(c codec) {
	c.i64(&f.ID)
	c.str(&f.SessionID)
	c.int(&f.Round)
	c.int(&f.TaskSeq)
	c.str(&f.ToolCallID)
	c.str(&f.Path)
	c.bool(&f.Existed)
	c.bytes(&f.Before)
	c.bytes(&f.After)
	c.u32(&f.Mode)
	c.time(&f.Undone)
	c.str(&f.BeforeSHA256)
	c.str(&f.AfterSHA256)
	c.bool(&f.PathRedacted)
	c.bool(&f.BeforeRedacted)
	c.bool(&f.AfterRedacted)
	c.bool(&f.ByCommand)
	c.bytes((*[]byte)(&f.Splices))
	c.bool(&f.SplicesRedacted)
}

// spoolEncoder appends fields to b.
type spoolEncoder struct{ b []byte }

func (e *spoolEncoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *spoolEncoder) str(s *string)    { e.uvarint(uint64(len(*s))); e.b = append(e.b, *s...) }
func (e *spoolEncoder) int(v *int)       { e.b = binary.AppendVarint(e.b, int64(*v)) }
func (e *spoolEncoder) i64(v *int64)     { e.b = binary.AppendVarint(e.b, *v) }
func (e *spoolEncoder) u32(v *uint32)    { e.uvarint(uint64(*v)) }
func (e *spoolEncoder) f64(v *float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(*v))
}
func (e *spoolEncoder) count(n int) int { e.uvarint(uint64(n)); return n }
func (e *spoolEncoder) ok() bool        { return true }

func (e *spoolEncoder) bool(v *bool) {
	if *v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// bytes writes 0 for nil, else the length plus one.
func (e *spoolEncoder) bytes(b *[]byte) {
	if *b == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(len(*b)) + 1)
	e.b = append(e.b, *b...)
}

// time writes Unix nanoseconds, 0 for the zero time: what the datalog
// stores of it (nanos).
func (e *spoolEncoder) time(t *time.Time) { e.b = binary.AppendVarint(e.b, nanos(*t)) }

var errSpoolEntry = errors.New("spool entry cut short or damaged")

// spoolDecoder reads fields from b; after the first error every field
// reads as zero and err says what went wrong.
type spoolDecoder struct {
	b   []byte
	err error
}

func (d *spoolDecoder) fail()    { d.err, d.b = errSpoolEntry, nil }
func (d *spoolDecoder) ok() bool { return d.err == nil }

func (d *spoolDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *spoolDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// take returns the next n bytes.
func (d *spoolDecoder) take(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *spoolDecoder) str(s *string) { *s = string(d.take(d.uvarint())) }
func (d *spoolDecoder) int(v *int)    { *v = int(d.varint()) }
func (d *spoolDecoder) i64(v *int64)  { *v = d.varint() }

func (d *spoolDecoder) u32(v *uint32) {
	u := d.uvarint()
	if u > math.MaxUint32 {
		d.fail()
	}
	*v = uint32(u)
}

func (d *spoolDecoder) f64(v *float64) {
	*v = 0
	if b := d.take(8); len(b) == 8 {
		*v = math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
}

func (d *spoolDecoder) bool(v *bool) {
	b := d.take(1)
	*v = len(b) == 1 && b[0] == 1
	if len(b) == 1 && b[0] > 1 {
		d.fail()
	}
}

// count reads a slice's length; each element takes at least a byte, so a
// length past what is left is damage, not a reason to allocate.
func (d *spoolDecoder) count(int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *spoolDecoder) bytes(b *[]byte) {
	n := d.uvarint()
	if n == 0 {
		*b = nil
		return
	}
	*b = append([]byte{}, d.take(n-1)...)
}

func (d *spoolDecoder) time(t *time.Time) {
	if n := d.varint(); n != 0 {
		*t = time.Unix(0, n)
	} else {
		*t = time.Time{}
	}
}

// encodeEntry appends entry's payload to b.
func encodeEntry(b []byte, entry *spoolEntry) []byte {
	e := spoolEncoder{b: append(b, spoolVersion)}
	entry.code(&e)
	return e.b
}

// decodeEntry decodes a payload encodeEntry made.
func decodeEntry(payload []byte) (spoolEntry, error) {
	var entry spoolEntry
	if len(payload) == 0 || payload[0] != spoolVersion {
		return entry, errSpoolEntry
	}
	d := spoolDecoder{b: payload[1:]}
	entry.code(&d)
	if d.err == nil && len(d.b) != 0 {
		d.err = errSpoolEntry // bytes after the last field
	}
	return entry, d.err
}
