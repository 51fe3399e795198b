package discipline

import (
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
		// must fire
		{"same region twice", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 1, 100, 300)), []int{2}},
		{"a subset of lines already returned", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 20, 40, 300)), []int{2}},
		{"lines returned across two earlier pages", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v1", 101, 200, 300), readCall(f, "v1", 50, 150, 300)), []int{3}},
		{"read_file then cat of the whole file", rounds(readCall(f, "v1", 1, 300, 300), catCall("cat pkg/a.go", f, "v1", 300)), []int{2}},
		{"tail of a file already read", rounds(readCall(f, "v1", 1, 300, 300), catCall("tail -n 20 pkg/a.go", f, "v1", 300)), []int{2}},
		{"sed -n of lines already returned", rounds(readCall(f, "v1", 1, 300, 300), catCall("sed -n '10,30p' pkg/a.go", f, "v1", 300)), []int{2}},
		{"two reads of one region in one round", []step{{calls: []ToolCall{readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 1, 50, 300)}}}, []int{2}},
		{"second region read twice too", rounds(readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 1, 50, 300), readCall(f, "v1", 200, 250, 300), readCall(f, "v1", 200, 250, 300)), []int{2, 4}},
		// must not fire
		{"forward paging through 2,000 lines", paging(f, 2000, 200), []int{}},
		{"forward paging with overlapping pages", rounds(readCall(f, "v1", 1, 200, 2000), readCall(f, "v1", 150, 350, 2000), readCall(f, "v1", 300, 500, 2000)), []int{}},
		{"two regions of one file", rounds(readCall(f, "v1", 1, 100, 900), readCall(f, "v1", 500, 600, 900)), []int{}},
		{"read, edit, read again (new version)", rounds(readCall(f, "v1", 1, 100, 300), editCall(f, "a", "b"), readCall(f, "v2", 1, 100, 300)), []int{}},
		{"read, edit, read again (agent gave no version)", rounds(readCall(f, "", 1, 100, 300), editCall(f, "a", "b"), readCall(f, "", 1, 100, 300)), []int{}},
		{"edit back to an old version", rounds(readCall(f, "v1", 1, 100, 300), editCall(f, "a", "b"), editCall(f, "b", "a"), readCall(f, "v1", 1, 100, 300)), []int{}},
		{"file changed outside keel", rounds(readCall(f, "v1", 1, 100, 300), readCall(f, "v2", 1, 100, 300)), []int{}},
		{"same base name in two directories", rounds(readCall("/w/a/main.go", "v1", 1, 100, 100), readCall("/w/b/main.go", "v1", 1, 100, 100)), []int{}},
		{"compaction dropped the earlier read", []step{{calls: []ToolCall{readCall(f, "v1", 1, 100, 300)}}, {calls: []ToolCall{readCall(f, "v1", 1, 100, 300)}, compacted: true}}, []int{}},
		{"a failed read returned nothing", rounds(func() ToolCall { c := readCall(f, "v1", 1, 100, 300); c.IsError = true; return c }(), readCall(f, "v1", 1, 100, 300)), []int{}},
		{"third read of a region: the note is not repeated", rounds(readCall(f, "v1", 1, 10, 300), readCall(f, "v1", 1, 10, 300), readCall(f, "v1", 1, 10, 300)), []int{2}},
		{"an empty file", rounds(readCall(f, "v1", 1, 0, 0), readCall(f, "v1", 1, 0, 0)), []int{}},
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
	three := rounds(readCall(f, "v", 1, 10, 10), cmdCall("true", 0, ""), catCall("cat a.go", f, "v", 10), catCall("head -n 10 a.go", f, "v", 10))
	for _, tt := range []struct {
		reread int
		want   []int
	}{{0, []int{}}, {2, []int{3}}, {3, []int{4}}, {1, []int{3}}} {
		p := quiet()
		p.Reread = tt.reread
		x := newSession(t, p)
		for _, st := range three {
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
	ins := of(x.round(readCall("/w/a.go", "v", 10, 40, 100)), KindReread)
	if len(ins) != 1 {
		t.Fatalf("want one reread, got %v", ins)
	}
	for _, want := range []string{"/w/a.go", "10-40", "tool call 1", "not changed"} {
		if !strings.Contains(ins[0].Message, want) {
			t.Errorf("message %q lacks %q", ins[0].Message, want)
		}
	}
	if ins[0].Action != Inject || !strings.Contains(ins[0].Why, "2 times") {
		t.Errorf("unexpected %+v", ins[0])
	}
}

func TestAddSpanCoverage(t *testing.T) {
	var segs []seg
	for from := 1; from <= 2000; from += 100 {
		if minCount(segs, from, from+99) != 0 {
			t.Fatalf("page %d seen before", from)
		}
		segs = addSpan(segs, from, from+99)
	}
	if len(segs) != 1 || segs[0] != (seg{1, 2000, 1}) {
		t.Fatalf("paging did not merge: %v", segs)
	}
	segs = addSpan(segs, 500, 600)
	if got := minCount(segs, 550, 560); got != 2 {
		t.Errorf("minCount inside a twice-read span = %d, want 2", got)
	}
	if got := minCount(segs, 450, 560); got != 1 {
		t.Errorf("minCount across counts = %d, want 1", got)
	}
	if got := minCount(segs, 1990, 2010); got != 0 {
		t.Errorf("minCount past the end = %d, want 0", got)
	}
}
