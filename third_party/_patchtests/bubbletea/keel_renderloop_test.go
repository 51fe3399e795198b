package tea

// keel's tests of its render-loop patch (third_party/bubbletea): the loop
// sleeps while nothing changes and draws at most fps frames a second while
// views keep coming. third_party/verify.sh copies this file into a patched
// copy of the module and runs it with upstream's tests.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countModel draws how many ticks it has seen.
type countModel struct{ n int }

type tickMsg struct{}

func (m *countModel) Init() Cmd { return nil }
func (m *countModel) Update(msg Msg) (Model, Cmd) {
	if _, ok := msg.(tickMsg); ok {
		m.n++
	}
	return m, nil
}
func (m *countModel) View() View { return NewView(fmt.Sprintf("ticks: %d", m.n)) }

// safeBuffer is an output the test can read while the program writes.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startCounted runs a program with a render hook that counts passes.
func startCounted(t *testing.T, out *safeBuffer) (*Program, *atomic.Int64) {
	t.Helper()
	var passes atomic.Int64
	p := NewProgram(&countModel{}, WithInput(nil), WithOutput(out), WithWindowSize(40, 5),
		WithRenderHook(func() { passes.Add(1) }))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	t.Cleanup(func() { p.Quit(); <-done })
	return p, &passes
}

// settle waits until the render loop has made its first pass and then
// gone three frame intervals without one (or 2 s have passed: a loop that
// never goes quiet is for the caller's assertion to report).
func settle(t *testing.T, passes *atomic.Int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for passes.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the render loop never drew the first frame")
		}
		time.Sleep(time.Millisecond)
	}
	quiet := time.Now().Add(2 * time.Second)
	for n := passes.Load(); time.Now().Before(quiet); {
		time.Sleep(50 * time.Millisecond)
		m := passes.Load()
		if m == n {
			return
		}
		n = m
	}
}

func TestKeelRenderLoopSleepsWhenIdle(t *testing.T) {
	out := &safeBuffer{}
	_, passes := startCounted(t, out)
	settle(t, passes)
	before := passes.Load()
	time.Sleep(time.Second)
	if n := passes.Load() - before; n != 0 {
		t.Fatalf("the render loop woke %d times in an idle second; want 0 (the unpatched ticker wakes 60)", n)
	}
}

func TestKeelRenderLoopDrawsChangesAtMostFPS(t *testing.T) {
	out := &safeBuffer{}
	p, passes := startCounted(t, out)
	settle(t, passes)
	before := passes.Load()
	start := time.Now()
	const sends = 300
	for range sends {
		p.Send(tickMsg{})
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	// The last view is drawn within a frame interval or so.
	deadline := time.Now().Add(5 * time.Second)
	for want := fmt.Sprintf("ticks: %d", sends); lastDrawn(p) != want; {
		if time.Now().After(deadline) {
			t.Fatalf("the last view was never drawn: the last frame is %q", lastDrawn(p))
		}
		time.Sleep(5 * time.Millisecond)
	}
	n := passes.Load() - before
	limit := int64(elapsed/(time.Second/defaultFPS)) + 3
	if n > limit {
		t.Fatalf("%d passes in %v while views kept coming; at %d fps at most %d", n, elapsed, defaultFPS, limit)
	}
	if n < 3 {
		t.Fatalf("%d passes in %v while views kept coming: the loop should draw while they come, not only after", n, elapsed)
	}
	t.Logf("%d passes in %v (%.0f a second) for %d views", n, elapsed, float64(n)/elapsed.Seconds(), sends)
}

// lastDrawn is the content of the last frame the renderer flushed.
func lastDrawn(p *Program) string {
	r := p.renderer.(*cursedRenderer)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastView == nil {
		return ""
	}
	return r.lastView.Content
}

// slowInitModel takes 100 ms in Init, as a program does that prepares
// its first screen there: the first pass must still draw the initial view.
type slowInitModel struct{ countModel }

func (m *slowInitModel) Init() Cmd {
	time.Sleep(100 * time.Millisecond)
	return nil
}

// firstPass runs a program at 2 fps (a 500 ms frame interval) and returns
// how long after Run its render loop's first pass came and what that pass
// had drawn.
func firstPass(t *testing.T, opts ...ProgramOption) (time.Duration, string) {
	t.Helper()
	type pass struct {
		after time.Duration
		drawn string
	}
	first := make(chan pass, 1)
	var p *Program
	start := time.Now()
	opts = append(opts, WithInput(nil), WithOutput(&safeBuffer{}), WithWindowSize(40, 5), WithFPS(2),
		WithRenderHook(func() {
			select {
			case first <- pass{time.Since(start), lastDrawn(p)}:
			default:
			}
		}))
	p = NewProgram(&slowInitModel{}, opts...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	defer func() { p.Quit(); <-done }()
	select {
	case got := <-first:
		return got.after, got.drawn
	case <-time.After(10 * time.Second):
		t.Fatal("the render loop never made its first pass")
		return 0, ""
	}
}

func TestKeelFirstFrameAtOnce(t *testing.T) {
	after, drawn := firstPass(t, WithFirstFrameAtOnce())
	if after >= 300*time.Millisecond {
		t.Errorf("with WithFirstFrameAtOnce the first pass came %v after Run; want Init's 100 ms and well under the 500 ms frame interval", after)
	}
	if drawn != "ticks: 0" {
		t.Errorf("the first pass drew %q; want the initial view %q", drawn, "ticks: 0")
	}
	if after, _ := firstPass(t); after < 550*time.Millisecond {
		t.Errorf("without the option the first pass came %v after Run; want Init's 100 ms and one frame interval (500 ms), as upstream's ticker", after)
	}
}

// panicModel panics in Init or in View, before the render loop starts.
type panicModel struct{ in string }

func (m panicModel) Init() Cmd {
	if m.in == "Init" {
		panic("a panic in Init")
	}
	return nil
}
func (m panicModel) Update(Msg) (Model, Cmd) { return m, nil }
func (m panicModel) View() View {
	if m.in == "View" {
		panic("a panic in View")
	}
	return NewView("never drawn")
}

// Run starts the render loop after Init and the first View: a panic in
// either is recovered and returned as before, with no loop to stop.
func TestKeelPanicBeforeTheRenderLoop(t *testing.T) {
	for _, in := range []string{"Init", "View"} {
		t.Run(in, func(t *testing.T) {
			p := NewProgram(panicModel{in}, WithInput(nil), WithOutput(&safeBuffer{}), WithWindowSize(40, 5), WithFirstFrameAtOnce())
			done := make(chan error, 1)
			go func() { _, err := p.Run(); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrProgramPanic) {
					t.Fatalf("Run returned %v; want ErrProgramPanic", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("Run did not return after a panic in %s", in)
			}
		})
	}
}

// With the first frame at once, the size message Run sends at start can
// be handled after that frame; it must not erase the screen and draw it
// all again. A filter holds the message until the first pass, the order a
// busy scheduler may choose.
func TestKeelFirstFrameDrawnOnce(t *testing.T) {
	out := &safeBuffer{}
	drawn := make(chan struct{})
	var once sync.Once
	p := NewProgram(&countModel{}, WithInput(nil), WithOutput(out), WithWindowSize(40, 5), WithFirstFrameAtOnce(),
		WithRenderHook(func() { once.Do(func() { close(drawn) }) }),
		WithFilter(func(_ Model, msg Msg) Msg {
			if _, ok := msg.(WindowSizeMsg); ok {
				<-drawn
			}
			return msg
		}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	<-drawn
	time.Sleep(100 * time.Millisecond) // the size message handled, any frame it asks for drawn
	got := strings.Count(out.String(), "ticks: 0")
	p.Quit()
	<-done
	if got != 1 {
		t.Fatalf("the first view was drawn %d times; want once:\n%q", got, out.String())
	}
}
