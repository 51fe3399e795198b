package dialog

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// ask asks b on a goroutine, as the agent does, and returns the question
// as the root model's drain receives it and the channel the reply (or
// the asker's error) arrives on.
func ask(t *testing.T, ctx context.Context, b *Bridge, req agent.PermissionRequest) (*Request, <-chan error) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		rep, err := b.Ask(ctx, req)
		if err == nil && !rep.Allow {
			err = context.Canceled // any non-nil: not allowed
		}
		done <- err
	}()
	select {
	case r := <-b.Requests():
		return r, done
	case <-time.After(time.Minute):
		t.Fatal("the question never reached the UI")
	}
	return nil, nil
}

// TestOneQuestionAtATime: two questions show one at a time, the first
// answered by its key through the Bridge, the next shown after it.
func TestOneQuestionAtATime(t *testing.T) {
	b := NewBridge()
	d := New(keys.Default())
	st := theme.New(true, false)
	r1, done1 := ask(t, context.Background(), b, agent.PermissionRequest{Tool: "write_file", Summary: "a.txt"})
	d.Push(r1, time.Time{}, time.Time{})
	r2, done2 := ask(t, context.Background(), b, agent.PermissionRequest{Tool: "edit_file", Summary: "b.txt",
		Args: `{"old_string":"x","new_string":"y"}`})
	d.Push(r2, time.Time{}, time.Time{})
	if v := ansi.Strip(d.View(st, 80, 40)); !strings.Contains(v, "Allow write_file?") || !strings.Contains(v, "1 of 2 pending") {
		t.Fatalf("the first question should show, with the count:\n%s", v)
	}
	if line, _ := d.Key(tea.KeyPressMsg{Code: 'a', Text: "a"}); line != "allowed write_file once" {
		t.Fatalf("line %q", line)
	}
	if err := <-done1; err != nil {
		t.Fatalf("the first asker got %v, want allowed", err)
	}
	if v := ansi.Strip(d.View(st, 80, 40)); !strings.Contains(v, "Allow edit_file?") || !strings.Contains(v, "+y") {
		t.Fatalf("the second question should show with its edit's preview:\n%s", v)
	}
	d.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	if err := <-done2; err == nil || d.Active() {
		t.Fatal("esc denies the second and closes the dialog")
	}
}

// TestPruneDropsWithdrawnQuestions: a question whose asker stopped
// waiting (its task ended) is dropped, not answered.
func TestPruneDropsWithdrawnQuestions(t *testing.T) {
	b := NewBridge()
	d := New(keys.Default())
	ctx, cancel := context.WithCancel(context.Background())
	r, done := ask(t, ctx, b, agent.PermissionRequest{Tool: "run_command"})
	d.Push(r, time.Time{}, time.Time{})
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the asker's cancel ends its wait")
	}
	d.Prune()
	if d.Active() {
		t.Fatal("a withdrawn question stays")
	}
}

// TestTypeAheadGuard: keys within TypeAheadGuard of a question that
// opened while the user typed are not its answer.
func TestTypeAheadGuard(t *testing.T) {
	b := NewBridge()
	d := New(keys.Default())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // the asker stops waiting when the test ends
	r, _ := ask(t, ctx, b, agent.PermissionRequest{Tool: "run_command"})
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d.Push(r, now, now.Add(-200*time.Millisecond))
	if !d.TypedAhead(now.Add(TypeAheadGuard / 2)) {
		t.Fatal("a key right after the question opened, while typing, is typed ahead")
	}
	if d.TypedAhead(now.Add(TypeAheadGuard)) {
		t.Fatal("after the guard keys answer")
	}
}

// TestAllowAlways: a question that offers "always" (fetch's domain) shows
// the A key and what it saves, and A answers allow-always; a question
// that does not offer it ignores A.
func TestAllowAlways(t *testing.T) {
	b := NewBridge()
	d := New(keys.Default())
	st := theme.New(true, false)
	got := make(chan agent.PermissionReply, 1)
	go func() {
		rep, _ := b.Ask(context.Background(), agent.PermissionRequest{Tool: "fetch", Summary: "https://go.dev/doc",
			Reason: "fetch reaches go.dev, not allowed yet", Grant: "fetch: go.dev for this session", Always: "fetch:go.dev"})
		got <- rep
	}()
	d.Push(<-b.Requests(), time.Time{}, time.Time{})
	v := ansi.Strip(d.View(st, 100, 30))
	for _, want := range []string{"fetch reaches go.dev", "A allow always", "A saves in your config: fetch:go.dev", "s covers: fetch: go.dev for this session"} {
		if !strings.Contains(v, want) {
			t.Errorf("the question lacks %q:\n%s", want, v)
		}
	}
	if line, _ := d.Key(tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}); line != "allowed always: fetch:go.dev" {
		t.Fatalf("line %q", line)
	}
	if rep := <-got; !rep.Allow || !rep.Always || !rep.ForSession {
		t.Fatalf("reply %+v, want allow always", rep)
	}

	r, done := ask(t, context.Background(), b, agent.PermissionRequest{Tool: "write_file", Summary: "a.txt"})
	d.Push(r, time.Time{}, time.Time{})
	if v := ansi.Strip(d.View(st, 100, 30)); strings.Contains(v, "allow always") {
		t.Fatalf("a question without always offers it:\n%s", v)
	}
	if line, _ := d.Key(tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}); line != "" || !d.Active() {
		t.Fatalf("A answered a question that does not offer always: %q", line)
	}
	d.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	<-done
}
