package datalog

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"
)

var timeType = reflect.TypeOf(time.Time{})

// fillDistinct sets every field under v to a value of its own, so a field the
// codec forgets comes back zero and different.
func fillDistinct(t testing.TB, v reflect.Value, n *int, path string) {
	*n++
	switch {
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(time.Unix(1_700_000_000, int64(*n))))
		return
	case v.Type() == reflect.TypeOf(RoundRecord{}).Field(1).Type: // RoundRecord.Messages: the spool keeps them as stored
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s=%d", path, *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) * 1_000_003)
	case reflect.Uint32:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(fmt.Sprintf(`{"%s":%d}`, path, *n)))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillDistinct(t, v.Index(i), n, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillDistinct(t, v.Field(i), n, path+"."+v.Type().Field(i).Name)
		}
	default:
		t.Fatalf("%s: fill does not know %s; teach it, and the spool codec", path, v.Type())
	}
}

// same compares what the datalog stores of a and b: times as Unix
// nanoseconds, everything else exactly.
func same(t *testing.T, a, b reflect.Value, path string) {
	if a.Type() == timeType {
		if nanos(a.Interface().(time.Time)) != nanos(b.Interface().(time.Time)) {
			t.Errorf("%s: %v, decoded %v", path, a, b)
		}
		return
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			same(t, a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
		}
	case reflect.Slice:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			t.Errorf("%s: %d elements (nil %v), decoded %d (nil %v)", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
			return
		}
		for i := range a.Len() {
			same(t, a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			t.Errorf("%s: %v, decoded %v", path, a, b)
		}
	}
}

// Every field of a spooled round survives encoding: a field added to a
// record and not to its code method fails here.
func TestSpoolCodecKeepsEveryField(t *testing.T) {
	var in spoolEntry
	n := 0
	fillDistinct(t, reflect.ValueOf(&in).Elem(), &n, "entry")
	out, err := decodeEntry(encodeEntry(nil, &in))
	if err != nil {
		t.Fatal(err)
	}
	same(t, reflect.ValueOf(in), reflect.ValueOf(out), "entry")
}

// nil and empty bytes stay apart (a file change's content: not stored,
// or an empty file), and zero times stay zero.
func TestSpoolCodecKeepsNilAndZero(t *testing.T) {
	in := spoolEntry{Round: RoundRecord{FileChanges: []FileChange{{Before: nil, After: []byte{}}}}}
	out, err := decodeEntry(encodeEntry(nil, &in))
	if err != nil {
		t.Fatal(err)
	}
	fc := out.Round.FileChanges[0]
	if fc.Before != nil || fc.After == nil || len(fc.After) != 0 || !fc.Undone.IsZero() || !out.Round.Round.Started.IsZero() {
		t.Errorf("decoded %+v", fc)
	}
}

// A payload cut anywhere, or with bytes after its last field, is refused.
func TestSpoolCodecRefusesDamage(t *testing.T) {
	var in spoolEntry
	n := 0
	fillDistinct(t, reflect.ValueOf(&in).Elem(), &n, "entry")
	b := encodeEntry(nil, &in)
	for cut := 0; cut < len(b); cut++ {
		if _, err := decodeEntry(b[:cut]); err == nil {
			t.Fatalf("a payload cut at %d of %d decoded", cut, len(b))
		}
	}
	if _, err := decodeEntry(append(b, 0)); err == nil {
		t.Error("a payload with a trailing byte decoded")
	}
}

// Any payload decodes or is refused without a panic, and what decodes
// encodes back to the same entry.
func FuzzDecodeEntry(f *testing.F) {
	var full spoolEntry
	n := 0
	fillDistinct(f, reflect.ValueOf(&full).Elem(), &n, "entry")
	f.Add(encodeEntry(nil, &full))
	f.Add(encodeEntry(nil, &spoolEntry{}))
	f.Add([]byte{spoolVersion, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err != nil {
			return
		}
		again, err := decodeEntry(encodeEntry(nil, &e))
		if err != nil {
			t.Fatalf("a decoded entry does not decode once encoded again: %v", err)
		}
		same(t, reflect.ValueOf(e), reflect.ValueOf(again), "entry")
	})
}

// A damaged length (here a million file changes, in a payload of a
// megabyte of zeros that each decode as an empty one) costs memory in
// proportion to what decodes, not to what the length claims.
func TestSpoolCodecBoundsAllocation(t *testing.T) {
	e := &spoolEncoder{b: []byte{spoolVersion}}
	var empty spoolEntry
	r := &empty.Round
	r.Round.code(e)
	e.bool(&r.HistoryReset)
	for range 4 { // tool calls, interventions, plans, transitions
		e.count(0)
	}
	const claimed = 1 << 20
	e.count(claimed) // file changes
	payload := append(e.b, make([]byte, 1<<20)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := decodeEntry(payload); err == nil {
		t.Fatal("a payload of a million empty file changes that ends early decoded")
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 150<<20 { // a slice of the claimed length alone is 250 MB
		t.Errorf("decoding a 1 MB payload allocated %d MB", grew>>20)
	}
}
