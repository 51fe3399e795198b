package discipline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// step is one round of a reread scenario.
type step struct {
	calls     []ToolCall
	compacted bool
}

func rounds(calls ...ToolCall) []step {
	out := make([]step, len(calls))
	for i, c := range calls {
		out[i] = step{calls: []ToolCall{c}}
	}
	return out
}

func paging(path string, total, page int) []step {
	var out []step
	for from := 1; from <= total; from += page {
		out = append(out, step{calls: []ToolCall{readCall(path, "v1", from, min(from+page-1, total), total)}})
	}
	return out
}

func TestReread(t *testing.T) {
	const f = "/w/pkg/a.go"
	tests := []struct {
		name  string
		steps []step
		want  []int // tool calls at which reread fired
	}{
		// must fire: the third read of the same lines, nothing changed
		{"same region three times", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300)), []int{3}},
		{"read_file whole, then cat twice", rounds(readCall(f, "v1", 1, 300, 300), catCall("cat pkg/a.go", f, "v1", 300), catCall("cat pkg/a.go", f, "v1", 300)), []int{3}},
		{"the same tail three times", rounds(catCall("tail -n 20 pkg/a.go", f, "v1", 300), catCall("tail -n 20 pkg/a.go", f, "v1", 300), catCall("tail -20 pkg/a.go", f, "v1", 300)), []int{3}},
		{"sed -n of the same lines three times", rounds(readCall(f, "v1", 10, 30, 300), catCall("sed -n '10,30p' pkg/a.go", f, "v1", 300), catCall("sed -n '10,30p' pkg/a.go", f, "v1", 300)), []int{3}},
		{"three reads of one region in one round", []step{{calls: []ToolCall{readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 1, 50, 300)}}}, []int{3}},
		{"two regions, each three times", rounds(readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 200, 250, 300), readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 200, 250, 300), readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 200, 250, 300)), []int{5, 6}},
		{"fourth read of a region: the note is not repeated", rounds(readCall(f, "v1", 1, 10, 300), readCall(f, "v1", 1, 10, 300), readCall(f, "v1", 1, 10, 300), readCall(f, "v1", 1, 10, 300)), []int{3}},
		// must not fire
		{"same region twice", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300)), []int{}},
		{"read whole, then focus on sub-ranges", rounds(readCall(f, "v1", 1, 300, 300), readCall(f, "v1", 40, 60, 300), readCall(f, "v1", 100, 130, 300), readCall(f, "v1", 40, 50, 300), readCall(f, "v1", 45, 46, 300)), []int{}},
		{"read whole, then narrower and narrower", rounds(readCall(f, "v1", 1, 300, 300), readCall(f, "v1", 1, 200, 300), readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 50, 300)), []int{}},
		{"lines returned across two earlier pages", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 101, 200, 300), readCall(f, "v1", 50, 150, 300)), []int{}},
		{"read_file then cat of the whole file (first use)", rounds(readCall(f, "v1", 1, 300, 300), catCall("cat pkg/a.go", f, "v1", 300)), []int{}},
		{"read whole, then tail, head and sed -n", rounds(readCall(f, "v1", 1, 300, 300), catCall("tail -n 20 pkg/a.go", f, "v1", 300), catCall("head -n 40 pkg/a.go", f, "v1", 300), catCall("sed -n '10,30p' pkg/a.go", f, "v1", 300)), []int{}},
		{"forward paging through 2,000 lines", paging(f, 2000, 200), []int{}},
		{"forward paging with overlapping pages", rounds(readCall(f, "v1", 1, 200, 2000), readCall(f, "v1", 150, 350, 2000), readCall(f, "v1", 300, 500, 2000)), []int{}},
		{"two regions of one file", rounds(readCall(f, "v1", 1, 100, 900), readCall(f, "v1", 500, 600, 900)), []int{}},
		{"read, edit, read again, twice (new versions)", rounds(readCall(f, "v1", 1, 100, 300), editCall(f, "a", "b"), readCall(f, "v2", 1, 100, 300), editCall(f, "b", "c"), readCall(f, "v3", 1, 100, 300)), []int{}},
		{"read, edit, read again (agent gave no version)", rounds(readCall(f, "", 1, 100, 300), readCall(f, "", 1, 100, 300), editCall(f, "a", "b"), readCall(f, "", 1, 100, 300)), []int{}},
		{"edit back to an old version", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300), editCall(f, "a", "b"), editCall(f, "b", "a"), readCall(f, "v1", 1, 100, 300)), []int{}},
		{"file changed outside keel", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v2", 1, 100, 300), readCall(f, "v3", 1, 100, 300)), []int{}},
		{"same base name in three directories", rounds(readCall("/w/a/main.go", "v1", 1, 100, 100), readCall("/w/b/main.go", "v1", 1, 100, 100), readCall("/w/c/main.go", "v1", 1, 100, 100)), []int{}},
		{"compaction dropped the earlier reads", []step{{calls: []ToolCall{readCall(f, "v1", 1, 100, 300)}}, {calls: []ToolCall{readCall(f, "v1", 1, 100, 300)}}, {calls: []ToolCall{readCall(f, "v1", 1, 100, 300)}, compacted: true}}, []int{}},
		{"a failed read returned nothing", rounds(func() ToolCall { c := readCall(f, "v1", 1, 100, 300); c.IsError = true; return c }(), readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300)), []int{}},
		{"an empty file", rounds(readCall(f, "v1", 1, 0, 0), readCall(f, "v1", 1, 0, 0), readCall(f, "v1", 1, 0, 0)), []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newSession(t, quiet())
			for _, st := range tt.steps {
				if st.compacted {
					x.compacted(st.calls...)
				} else {
					x.round(st.calls...)
				}
			}
			if got := calls(of(x.fired, KindReread)); !slices.Equal(got, tt.want) {
				t.Errorf("reread at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRereadDisabledAndThreshold(t *testing.T) {
	const f = "/w/a.go"
	four := rounds(readCall(f, "v", 1, 10, 10), cmdCall("true", 0, ""), catCall("cat a.go", f, "v", 10), catCall("head -n 10 a.go", f, "v", 10), catCall("sed -n '1,10p' a.go", f, "v", 10))
	for _, tt := range []struct {
		reread int
		want   []int
	}{{0, []int{}}, {2, []int{3}}, {3, []int{4}}, {4, []int{5}}, {1, []int{3}}} {
		p := quiet()
		p.Set("reread", tt.reread)
		p.Set("reread_halt", 0) // the halt at the 4th read would hide the note at 5
		x := newSession(t, p)
		for _, st := range four {
			x.round(st.calls...)
		}
		if got := calls(of(x.fired, KindReread)); !slices.Equal(got, tt.want) {
			t.Errorf("Reread %d: fired at %v, want %v", tt.reread, got, tt.want)
		}
	}
}

func TestRereadMessage(t *testing.T) {
	x := newSession(t, quiet())
	x.round(readCall("/w/a.go", "v", 10, 40, 100))
	x.round(cmdCall("true", 0, ""))
	x.round(readCall("/w/a.go", "v", 10, 40, 100))
	ins := of(x.round(readCall("/w/a.go", "v", 10, 40, 100)), KindReread)
	if len(ins) != 1 {
		t.Fatalf("want one reread, got %v", ins)
	}
	for _, want := range []string{"/w/a.go", "10-40", "tool calls 1 and 3", "not changed"} {
		if !strings.Contains(ins[0].Message, want) {
			t.Errorf("message %q lacks %q", ins[0].Message, want)
		}
	}
	if ins[0].Action != Inject || !strings.Contains(ins[0].Why, "3 times") {
		t.Errorf("unexpected %+v", ins[0])
	}
}

// The same lines read in eight spellings with nothing changed: the note at
// the third read, the halt at the fourth, as for identical reads.
func TestRereadAnySpellingHalts(t *testing.T) {
	const f = "/w/a.go"
	spellings := []ToolCall{
		readCall(f, "v", 1, 40, 40),
		catCall("cat a.go", f, "v", 40),
		catCall("head -n 40 a.go", f, "v", 40),
		catCall("sed -n '1,40p' a.go", f, "v", 40),
		catCall("awk 'NR>=1 && NR<=40' a.go", f, "v", 40),
		catCall("tail -n 40 a.go", f, "v", 40),
		catCall("cat -n a.go | head -n 40", f, "v", 40),
		readCall(f, "v", 1, 40, 40),
	}
	p := quiet()
	p.Headless = true
	x := newSession(t, p)
	for _, c := range spellings {
		x.round(c)
	}
	if got := calls(of(x.fired, KindReread)); !slices.Equal(got, []int{3}) {
		t.Errorf("notes at %v, want [3]", got)
	}
	if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, []int{4, 8}) {
		t.Errorf("halts at %v, want [4 8] (counting again after the first)", got)
	}
	if h := of(x.fired, KindHalt); len(h) == 0 || !strings.Contains(h[0].Message, "lines 1-40") || !strings.Contains(h[0].Message, "nothing changed in between") || h[0].StopReason != StopLoopDetected {
		t.Errorf("halt %+v", h)
	}
}

// Must not halt: one read in each of four tasks (the note only); reads of
// a file with edits between them; and reads of an unchanged file with
// edits elsewhere between them (edit-heavy work rereads its reference).
func TestRereadHaltOnlyWithinATaskAndVersion(t *testing.T) {
	const f = "/w/a.go"
	p := quiet()
	p.Headless = true
	x := newSession(t, p)
	for range 4 {
		x.s = NewTask(x.s)
		x.round(readCall(f, "v", 1, 40, 40))
	}
	if hasKind(x.fired, KindHalt) {
		t.Errorf("halted across tasks: %v", kindsOf(x.fired))
	}
	y := newSession(t, p)
	for i := range 6 {
		v := fmt.Sprint("v", i/2) // an edit after every second read
		y.round(catCall("cat a.go", f, v, 40))
		if i%2 == 1 {
			y.round(editCall(f, "x", "y"))
		}
	}
	if len(y.fired) != 0 {
		t.Errorf("fired %v on reads of changed versions", kindsOf(y.fired))
	}
	z := newSession(t, p)
	for i := range 6 {
		z.round(readCall(f, "v", 1, 40, 40))
		z.round(editCall("/w/impl.go", fmt.Sprint(i), fmt.Sprint(i+1)))
	}
	if hasKind(z.fired, KindHalt) {
		t.Errorf("halted a reference file reread between edits elsewhere: %v", kindsOf(z.fired))
	}
	w := newSession(t, p)
	for i := range 6 {
		w.summary(RoundSummary{Calls: []ToolCall{readCall(f, "v", 1, 40, 40)}, WorldChanged: i > 0})
	}
	if hasKind(w.fired, KindHalt) {
		t.Errorf("halted reads with changes outside keel between them: %v", kindsOf(w.fired))
	}
}
