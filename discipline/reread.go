package discipline

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// KindReread is the reread guard's note.
const KindReread Kind = "reread"

var (
	rereadAt   = intSetting("reread", 3, "note at this many reads of the same lines of an unchanged file (3: the second repeat), however they were read; 0 disables")
	rereadHalt = intSetting("reread_halt", 4, "ask the user (headless: halt) at this many in a task with nothing changed in between; 0 disables")
)

// The reads survive a new task: they are still in the conversation.
var rereadGuard = &Guard{
	Name: "reread", Kind: KindReread, Rank: 3,
	Settings:        []*Setting{rereadAt, rereadHalt},
	Call:            observeReads,
	Forget:          func(s *State) { delete(s.own, "reread") },
	WorldChanged:    func(s *State) { stateOf[readLog](s, "reread").epoch++ },
	KeepAcrossTasks: true,
}

// readLog is every file version's spans returned to the model, and a
// count of the changes seen (any edit, any change outside keel): the
// stop counts reads with nothing changed in between, as the repeat guard
// counts identical calls.
type readLog struct {
	reads map[readKey]coverage
	epoch int
}

func (r *readLog) clone() guardState { return &readLog{reads: maps.Clone(r.reads), epoch: r.epoch} }

// observeReads forgets the reads of files the call changed, then records
// the call's reads (a failed call returned nothing to count).
func observeReads(s *State, c ToolCall, n int, p *Policy) *Intervention {
	log := stateOf[readLog](s, "reread")
	for _, path := range c.Changed {
		log.forgetPath(path)
	}
	if len(c.Changed) > 0 {
		log.epoch++
	}
	if failed(c) {
		return nil
	}
	var note *Intervention
	for _, r := range c.Reads {
		if in := log.observeRead(r, n, stretch{s.task, log.epoch}, p); in != nil && (note == nil || in.Action != Inject) {
			note = in
		}
	}
	return note
}

// readKey identifies one version of one file.
type readKey struct{ path, version string }

// coverage records the spans of one file version returned to the model
// and when. It is never written in place: an older State may share it.
type coverage struct {
	spans []spanReads
}

// spanReads is one exact span (first and last line) and the tool calls
// that returned it.
type spanReads struct {
	from, to int
	calls    []int   // bounded by maxLog, most recent last
	stretch  stretch // when the last read was
	inRun    int     // reads in that stretch
}

// stretch is a task and the changes seen in it: reads in one stretch had
// nothing changed between them.
type stretch struct{ task, epoch int }

// maxLog bounds the calls remembered per span; maxSpans the spans per
// file version (the oldest are forgotten).
const (
	maxLog   = 16
	maxSpans = 64
)

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

// record returns the coverage with one more read of [from, to] at call
// in stretch st, the calls that returned exactly that span before, and
// the span's reads in this stretch (this one included).
func (cv coverage) record(from, to, call int, st stretch) (coverage, []int, int) {
	spans := make([]spanReads, 0, len(cv.spans)+1)
	var earlier []int
	inRun := 1
	found := false
	for _, sp := range cv.spans {
		if sp.from == from && sp.to == to {
			earlier, found = sp.calls, true
			sp.calls = appendCopy(sp.calls, call)
			if len(sp.calls) > maxLog {
				sp.calls = sp.calls[len(sp.calls)-maxLog:]
			}
			if sp.stretch != st {
				sp.stretch, sp.inRun = st, 0
			}
			sp.inRun++
			inRun = sp.inRun
		}
		spans = append(spans, sp)
	}
	if !found {
		spans = append(spans, spanReads{from: from, to: to, calls: []int{call}, stretch: st, inRun: 1})
	}
	if len(spans) > maxSpans {
		spans = spans[len(spans)-maxSpans:]
	}
	return coverage{spans: spans}, earlier, inRun
}

// restart returns the coverage with the span's count in this stretch
// back at 0: after a halt the user let go on, counting starts again.
func (cv coverage) restart(from, to int) coverage {
	spans := slices.Clone(cv.spans)
	for i := range spans {
		if spans[i].from == from && spans[i].to == to {
			spans[i].inRun = 0
		}
	}
	return coverage{spans: spans}
}

// observeRead records one read and returns the reread note when it
// returned exactly the lines of earlier reads of the same, unchanged file
// version, for the Reread-th time, and the halt at the RereadHalt-th such
// read in one task with nothing changed in between, however each was
// spelled (read_file's offset and
// limit, cat, head, tail, sed -n, awk: the agent turns each into lines).
// Narrowing to a sub-range, widening, paging and shifting are other
// spans and never count; so a cat of a file read whole counts as a
// repeat of that span, never on its own.
func (log *readLog) observeRead(r Read, call int, st stretch, p *Policy) *Intervention {
	from, to, ok := r.resolve()
	if !ok {
		return nil
	}
	if log.reads == nil {
		log.reads = map[readKey]coverage{}
	}
	k := readKey{r.Path, r.Version}
	cv, earlier, inRun := log.reads[k].record(from, to, call, st)
	log.reads[k] = cv
	times := len(earlier) + 1
	if halt := p.num(rereadHalt); halt > 0 && inRun >= max(halt, 2) {
		log.reads[k] = cv.restart(from, to)
		return escalate(p, call,
			fmt.Sprintf("%s lines %d-%d returned %s with nothing changed in between (halt at %d)", r.Path, from, to, plural(inRun, "time"), halt),
			fmt.Sprintf("keel stopped a loop: %s lines %d-%d were returned to you %s with nothing changed in between; they are in your context above. Do not read them again: use them, or move on.", r.Path, from, to, plural(inRun, "time")),
			map[string]int{"from": from, "to": to, "times": inRun, "halt_at": halt})
	}
	// One note per span, at the threshold.
	if at := p.num(rereadAt); at <= 0 || times != max(at, 2) {
		return nil
	}
	return rereadNote(r.Path, from, to, times, call, earlier)
}

func rereadNote(path string, from, to, times, call int, earlier []int) *Intervention {
	when := "at tool call " + joinInts(earlier)
	if len(earlier) > 1 {
		when = "at tool calls " + joinInts(earlier)
	}
	return &Intervention{
		Kind:       KindReread,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("Note: %s lines %d-%d were already returned to you %s, and the file has not changed since; they are still in your context above. Use them rather than reading them again.",
			path, from, to, when),
		Note:    fmt.Sprintf("%s lines %d-%d were already returned %s and have not changed: use them rather than reading them again.", path, from, to, when),
		Why:     fmt.Sprintf("%s lines %d-%d returned %s from the same version (earlier: %s)", path, from, to, plural(times, "time"), when),
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
func (log *readLog) forgetPath(path string) {
	for k := range log.reads {
		if k.path == path {
			delete(log.reads, k)
		}
	}
}
