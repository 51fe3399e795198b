package discipline

import (
	"fmt"
	"strings"
)

// readKey identifies one version of one file.
type readKey struct{ path, version string }

// coverage records which lines of a file version were returned, and how
// many times: sorted, disjoint segments, plus when reads happened.
type coverage struct {
	segs []seg
	log  []readAt // the most recent reads, for "when they were read"
}

// seg is a run of lines returned count times.
type seg struct{ from, to, count int }

// readAt is one read: its lines and the tool call that made it.
type readAt struct{ from, to, call int }

// maxLog bounds the reads a coverage remembers for its message.
const maxLog = 16

// resolve turns a Read into concrete 1-based lines, or ok false when the
// read names no lines (an empty file, an inconsistent span).
func (r Read) resolve() (from, to int, ok bool) {
	from, to = r.From, r.To
	if from < 0 && r.Total > 0 {
		from = max(r.Total+from+1, 1)
	}
	if from == 0 {
		from = 1
	}
	if to <= 0 || (r.Total > 0 && to > r.Total) {
		to = r.Total
	}
	return from, to, r.Path != "" && from >= 1 && to >= from
}

// minCount returns how many times every line of [a, b] was returned
// already: 0 when any line is new.
func minCount(segs []seg, a, b int) int {
	cur, m := a, -1
	for _, s := range segs {
		if s.to < cur {
			continue
		}
		if s.from > cur {
			return 0
		}
		if m < 0 || s.count < m {
			m = s.count
		}
		if cur = s.to + 1; cur > b {
			return m
		}
	}
	return 0
}

// addSpan returns new segments with [a, b] counted once more. It never
// writes into segs, which an older State may share.
func addSpan(segs []seg, a, b int) []seg {
	out := make([]seg, 0, len(segs)+3)
	cur := a // the first line of [a, b] not yet placed
	for _, s := range segs {
		switch {
		case s.to < a:
			out = append(out, s)
		case s.from > b:
			if cur <= b {
				out, cur = append(out, seg{cur, b, 1}), b+1
			}
			out = append(out, s)
		default:
			if s.from < a {
				out = append(out, seg{s.from, a - 1, s.count})
			}
			lo, hi := max(s.from, a), min(s.to, b)
			if cur < lo {
				out = append(out, seg{cur, lo - 1, 1})
			}
			out, cur = append(out, seg{lo, hi, s.count + 1}), hi+1
			if s.to > b {
				out = append(out, seg{b + 1, s.to, s.count})
			}
		}
	}
	if cur <= b {
		out = append(out, seg{cur, b, 1})
	}
	return mergeSegs(out)
}

// mergeSegs joins adjacent segments with equal counts, so forward paging
// through a long file stays one segment.
func mergeSegs(segs []seg) []seg {
	out := segs[:0]
	for _, s := range segs {
		if n := len(out); n > 0 && out[n-1].to+1 == s.from && out[n-1].count == s.count {
			out[n-1].to = s.to
			continue
		}
		out = append(out, s)
	}
	return out
}

// observeRead records one read and returns the reread note when the read
// returned only lines already returned, and this is the Reread-th time.
func (s *State) observeRead(r Read, call int, p Policy) *Intervention {
	from, to, ok := r.resolve()
	if !ok {
		return nil
	}
	if s.reads == nil {
		s.reads = map[readKey]coverage{}
	}
	k := readKey{r.Path, r.Version}
	cv := s.reads[k]
	seen := minCount(cv.segs, from, to)
	earlier := cv.overlapping(from, to)
	cv.segs = addSpan(cv.segs, from, to)
	cv.log = appendCopy(cv.log, readAt{from, to, call})
	if len(cv.log) > maxLog {
		cv.log = cv.log[len(cv.log)-maxLog:]
	}
	s.reads[k] = cv
	// Only a read with no new line can fire, and only at the threshold,
	// so one region gives one note; exact loops go to the repeat guard.
	if p.Reread <= 0 || seen == 0 || seen+1 != max(p.Reread, 2) {
		return nil
	}
	return rereadNote(r.Path, from, to, seen+1, call, earlier)
}

// overlapping returns the calls of remembered reads that touched [a, b].
func (cv coverage) overlapping(a, b int) []int {
	var calls []int
	for _, l := range cv.log {
		if l.from <= b && l.to >= a {
			calls = append(calls, l.call)
		}
	}
	return calls
}

func rereadNote(path string, from, to, times, call int, earlier []int) *Intervention {
	when := "earlier in this task"
	if len(earlier) > 0 {
		when = "at tool call " + joinInts(earlier)
		if len(earlier) > 1 {
			when = "at tool calls " + joinInts(earlier)
		}
	}
	return &Intervention{
		Kind:       KindReread,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("Note: %s lines %d-%d were already returned to you %s, and the file has not changed since; they are still in your context above. Use them rather than reading them again.",
			path, from, to, when),
		Why:     fmt.Sprintf("%s lines %d-%d returned %d times from the same version (earlier: %s)", path, from, to, times, when),
		Figures: map[string]int{"from": from, "to": to, "times": times},
	}
}

// joinInts renders 3, 7 and 12 as "3, 7 and 12".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// forgetPath drops every read of a changed file: a read after a change is
// new information even if the content later returns to an old version.
func (s *State) forgetPath(path string) {
	for k := range s.reads {
		if k.path == path {
			delete(s.reads, k)
		}
	}
}
