package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/keel-dev/keel/agent"
	"io"
	"strings"
	"time"

	"github.com/keel-dev/keel/internal/termtext"
)

// Output formats of headless mode.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// Headless runs one task without a UI and writes its output.
type Headless struct {
	Format string
	Stdout io.Writer
	Stderr io.Writer
	// Session describes the session for stream-json's init line and the
	// result's modelUsage.
	Session Session
	// PartialMessages adds the answer's text as it streams to stream-json
	// (stream_event lines), as Claude Code's --include-partial-messages.
	PartialMessages bool
}

// Run submits prompt, consumes the session's events until the task stops,
// and writes the result in the chosen format. Cancelling ctx cancels the task.
//
// Nothing the model or a tool wrote reaches the terminal as a control
// sequence: text output passes through termtext.Sanitize, and JSON output
// escapes the C1 controls encoding/json leaves raw (termtext.NewJSONWriter).
func (h Headless) Run(ctx context.Context, s *agent.Session, prompt string) (agent.TaskStopped, error) {
	if err := s.Submit(ctx, prompt); err != nil {
		return agent.TaskStopped{}, err
	}
	enc := json.NewEncoder(termtext.NewJSONWriter(h.Stdout))
	st := &streamer{sessionID: s.ID(), model: h.Session.Model, partial: h.PartialMessages}
	if h.Format == FormatStreamJSON {
		_ = enc.Encode(newInit(st.sessionID, h.Session))
	}
	for { // Events stays open for the session's life: the task's stop ends this
		ev := <-s.Events()
		h.show(enc, st, ev)
		if h.Format != FormatText {
			h.stderrLine(ev) // what a person must see at once, whatever stdout carries
		}
		if stopped, ok := ev.(agent.TaskStopped); ok {
			for _, run := range s.End(context.WithoutCancel(ctx), "exit") { // SessionEnd, shown before the result
				h.show(enc, st, run)
			}
			return stopped, h.finish(enc, st.sessionID, stopped)
		}
	}
}

// show writes one event in the chosen format.
func (h Headless) show(enc *json.Encoder, st *streamer, ev agent.Event) {
	switch h.Format {
	case FormatStreamJSON:
		for _, l := range st.lines(ev) {
			_ = enc.Encode(l)
		}
	case FormatText:
		h.progress(ev)
	case FormatJSON:
		if n, ok := ev.(agent.Notice); ok {
			fmt.Fprintln(h.Stderr, "keel: "+termtext.Sanitize(n.Text)) // stdout holds only the result
		}
	}
}

func (h Headless) finish(enc *json.Encoder, sessionID string, st agent.TaskStopped) error {
	switch h.Format {
	case FormatJSON, FormatStreamJSON:
		return enc.Encode(NewResult(sessionID, h.Session.Model, st))
	default:
		if st.Result != "" {
			_, err := fmt.Fprintln(h.Stdout, strings.TrimRight(termtext.Sanitize(st.Result), "\n"))
			return err
		}
		return nil
	}
}

// WriteStartupError writes the result object of a run that failed before
// its task started, in json and stream-json formats (text prints nothing
// here: the error goes to stderr as always).
func WriteStartupError(w io.Writer, format, sessionID string, err error) {
	if format != FormatJSON && format != FormatStreamJSON {
		return
	}
	_ = json.NewEncoder(termtext.NewJSONWriter(w)).Encode(StartupError(sessionID, err))
}

// progress writes one line per notable event to stderr (text format),
// sanitised: call subjects, reasons and messages carry the model's text.
func (h Headless) progress(ev agent.Event) {
	var line string
	switch e := ev.(type) {
	case agent.ToolFinished:
		subject := abbreviate(termtext.Sanitize(callSubject(e.Args)), 80)
		line = fmt.Sprintf("%s %s %s (%s)", toolMark(e), e.Name, subject, termtext.Duration(e.Duration))
		if e.Denied {
			line += ": " + e.DenyReason
		}
	case agent.InterventionFired:
		line = fmt.Sprintf("◆ %s: %s", e.Intervention.Kind, e.Intervention.Why)
	case agent.Retrying:
		line = "↻ " + e.Err
	case agent.ProviderSilent:
		if e.Quiet > 0 {
			line = silenceLine(e)
		}
	case agent.Notice:
		line = "! " + e.Text
	case agent.DatalogHealth:
		line = "! " + e.Text
	case agent.ReflectionRecorded:
		line = reflectionLine(e)
	case agent.LessonsOffered:
		line = fmt.Sprintf("◇ %d lesson(s) from earlier tasks offered", e.Count)
	case agent.HookRan:
		line = HookLine(e)
	case agent.SubagentStarted:
		line = fmt.Sprintf("⇢ subagent %s: %s", e.Agent, abbreviate(e.Description, 80))
	case agent.SubagentFinished:
		line = fmt.Sprintf("⇠ subagent %s: %s, %d rounds, %d tool calls (%s)", e.Agent, e.Reason, e.Summary.Turns, e.Summary.ToolCalls, termtext.Duration(e.Summary.Duration))
	case agent.SubagentEvent:
		h.childProgress(e)
		return
	case agent.TaskStopped:
		if e.Reason != agent.StopCompleted {
			line = fmt.Sprintf("■ %s: %s", e.Reason, e.Message)
		}
	}
	if line != "" {
		fmt.Fprintln(h.Stderr, termtext.Sanitize(line))
	}
}

// childProgress writes a subagent's notable events, indented under it.
func (h Headless) childProgress(e agent.SubagentEvent) {
	switch e.Event.(type) {
	case agent.ToolFinished, agent.InterventionFired, agent.HookRan, agent.Notice:
	default:
		return
	}
	var inner strings.Builder
	(Headless{Format: FormatText, Stderr: &inner}).progress(e.Event)
	for _, l := range strings.Split(strings.TrimRight(inner.String(), "\n"), "\n") {
		if l != "" {
			fmt.Fprintf(h.Stderr, "  %s │ %s\n", termtext.Sanitize(e.Agent), l)
		}
	}
}

func toolMark(e agent.ToolFinished) string {
	switch {
	case e.Denied:
		return "⊘"
	case e.IsError:
		return "✗"
	default:
		return "✓"
	}
}

// abbreviate shortens s to n runes on one line.
func abbreviate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// callSubject is what a progress line names for a call: its command,
// path or pattern, else the arguments as compact JSON.
func callSubject(args string) string {
	if k := agent.KeyArgument(args); k != "" {
		return k
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) != nil {
		return args
	}
	return b.String()
}

// reflectionLine is a checkpoint's answer in one line.
func reflectionLine(e agent.ReflectionRecorded) string {
	if e.Reflection == nil {
		return "◆ checkpoint unanswered: no reflect call in the next round"
	}
	r := e.Reflection
	return fmt.Sprintf("◇ reflection: %s (confidence %.2f): %s", r.Adjustment, r.Confidence, abbreviate(r.Progress, 100))
}

// silenceLine says which server keel waits on and when it gives up.
func silenceLine(e agent.ProviderSilent) string {
	secs := func(d time.Duration) int64 { return int64(max(d.Round(time.Second), time.Second) / time.Second) }
	return fmt.Sprintf("… %s has sent nothing for %d s; keel gives up on this attempt at %d s (stream_idle_timeout)",
		e.Provider, secs(e.Quiet), secs(e.Timeout))
}

// stderrLine writes, in the JSON formats, the events a person must see as
// they happen on stderr whatever stdout carries: the datalog failing to
// save, and saving again.
func (h Headless) stderrLine(ev agent.Event) {
	if e, ok := ev.(agent.DatalogHealth); ok {
		fmt.Fprintln(h.Stderr, "keel: "+termtext.Sanitize(e.Text))
	}
}
