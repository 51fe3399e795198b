package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// Kill tests: keel is killed (SIGKILL) at a random moment of an editing
// task, or of the keel undo after it; then keel undo must put every file
// back exactly as it was before the task (checksums). make test runs a
// few trials; make soak (KEEL_SOAK=1) runs 100 and 50.

// soakTrials is n in make soak, else few.
func soakTrials(n, few int) int {
	if os.Getenv("KEEL_SOAK") != "" {
		return n
	}
	return few
}

// editTask is a project and a scripted model that edits it over many
// rounds: reads, edits of unique lines, whole-file rewrites (some of
// megabytes, so a kill can land inside a write), new files.
type editTask struct {
	files  map[string]string // the project before the task
	rounds []llmtest.Round
}

// newEditTask builds a task from seed: nFiles files, nRounds rounds.
func newEditTask(seed uint64, nFiles, nRounds int) *editTask {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	et := &editTask{files: map[string]string{}}
	cur := map[string][]string{}
	var names []string
	for i := range nFiles {
		name := fmt.Sprintf("src/f%02d.txt", i)
		if i%3 == 0 {
			name = fmt.Sprintf("f%02d.go", i)
		}
		n := 20 + rng.IntN(400)
		lines := make([]string, n)
		for j := range lines {
			lines[j] = fmt.Sprintf("line %s %d %x", name, j, rng.Uint64())
		}
		cur[name], names = lines, append(names, name)
		et.files[name] = strings.Join(lines, "\n") + "\n"
	}
	var reads []llmtest.Call
	for _, n := range names {
		reads = append(reads, llmtest.Call{Name: "read_file", Args: fmt.Sprintf(`{"path":%q}`, n)})
	}
	et.rounds = append(et.rounds, llmtest.ToolRound(reads...))
	for r := 1; r < nRounds; r++ {
		var calls []llmtest.Call
		for range 1 + rng.IntN(3) {
			calls = append(calls, et.nextCall(rng, r, cur, &names))
		}
		et.rounds = append(et.rounds, llmtest.Round{ToolCalls: calls, ArgChunk: 64 << 10})
	}
	et.rounds = append(et.rounds, llmtest.TextRound("done editing"))
	return et
}

// nextCall is one edit of round r, applied to cur.
func (et *editTask) nextCall(rng *rand.Rand, r int, cur map[string][]string, names *[]string) llmtest.Call {
	name := (*names)[rng.IntN(len(*names))]
	lines := cur[name]
	args := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) }
	switch k := rng.IntN(10); {
	case k < 6 && len(lines) > 0: // edit one unique line
		j := rng.IntN(len(lines))
		repl := fmt.Sprintf("edited in round %d %x", r, rng.Uint64())
		old := lines[j]
		lines[j] = repl
		return llmtest.Call{Name: "edit_file", Args: args(map[string]any{"path": name, "old_string": old, "new_string": repl})}
	case k < 8: // rewrite the whole file, sometimes large
		n := 10 + rng.IntN(200)
		if rng.IntN(6) == 0 {
			n = 5000 + rng.IntN(15000) // 0.3-1.2 MB: a kill may land inside its write
		}
		nl := make([]string, n)
		for j := range nl {
			nl[j] = fmt.Sprintf("rewritten %s round %d line %d %x", name, r, j, rng.Uint64())
		}
		cur[name] = nl
		return llmtest.Call{Name: "write_file", Args: args(map[string]any{"path": name, "content": strings.Join(nl, "\n") + "\n"})}
	default: // a new file
		nn := fmt.Sprintf("new/r%02d_%x.txt", r, rng.Uint32())
		cur[nn] = []string{fmt.Sprintf("new in round %d", r)}
		*names = append(*names, nn)
		return llmtest.Call{Name: "write_file", Args: args(map[string]any{"path": nn, "content": cur[nn][0] + "\n"})}
	}
}

// write lays the project out in dir.
func (et *editTask) write(t *testing.T, dir string) {
	t.Helper()
	for name, body := range et.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checksums are every file under dir (hidden ones too: a temp file left
// behind counts), relative path -> SHA-256 and mode, and every directory
// (one keel created and undo left behind counts too).
func checksums(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out[rel+"/"] = "directory"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = hex.EncodeToString(sum[:8]) + " " + fi.Mode().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports the differences between two checksum maps.
func sameTree(want, got map[string]string) []string {
	var diff []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diff = append(diff, p+" missing")
		} else if g != w {
			diff = append(diff, p+" differs")
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, p+" left behind")
		}
	}
	sort.Strings(diff)
	return diff
}

// killedTask runs the edit task and kills keel at a random moment: when
// request kill arrives, after delay. It reports whether keel was killed
// (false: the task ended first).
func killedTask(t *testing.T, home, dir string, et *editTask, kill int, delay time.Duration) bool {
	t.Helper()
	// The process, not its pid: os.Process signals through a pidfd, so a
	// timer that fires after keel was reaped cannot kill a process that
	// reused the pid (another test's keel).
	var proc atomic.Pointer[os.Process]
	var sent atomic.Bool // set before the signal: Wait may return before Signal does
	handler := func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n == kill {
			time.AfterFunc(delay, func() {
				if p := proc.Load(); p != nil {
					sent.Store(true)
					_ = p.Signal(syscall.SIGKILL)
				}
			})
		}
		if n < len(et.rounds) {
			return et.rounds[n]
		}
		return llmtest.TextRound("done")
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: handler})
	writeUserConfig(t, home, "reflection_cadence = 0\n[providers.openai]\ncontext_window = 10000000\n")
	cmd, out := startKeel(t, home, dir, srv, "-p", "edit the files", "--yolo", "--max-turns", "0")
	proc.Store(cmd.Process)
	err := cmd.Wait()
	var ee *exec.ExitError
	killed := sent.Load() && errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
	if !killed && err != nil {
		t.Fatalf("the task failed without a kill: %v\n%s", err, out)
	}
	return killed
}

// undoOnce runs keel undo once and returns what it printed; it must exit
// 0 (the test then compares the files).
func undoOnce(t *testing.T, home, dir string) (string, bool) {
	t.Helper()
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "undo")
	return fmt.Sprintf("exit %d: %s%s", code, out, errOut), code == 0
}

// soakTally counts what a kill test's trials saw, logged at its end.
type soakTally struct{ trials, killed, interrupted, exact atomic.Int64 }

func (s *soakTally) log(t *testing.T, what string) {
	t.Cleanup(func() {
		t.Logf("%s: %d trials, %d killed mid-way (%d found interrupted by the next undo), %d restored exactly",
			what, s.trials.Load(), s.killed.Load(), s.interrupted.Load(), s.exact.Load())
	})
}

// wantInterrupted fails the soak run of the kill-during-undo test when
// no kill landed inside an undo: the trials would then only show that
// undo works, not that an interrupted one is finished (a harness that
// killed keel before it began restoring once passed 50 of 50 that way).
func (s *soakTally) wantInterrupted(t *testing.T) {
	t.Cleanup(func() {
		if os.Getenv("KEEL_SOAK") != "" && s.killed.Load() > 0 && s.interrupted.Load() == 0 {
			t.Errorf("none of %d kills landed inside an undo: the test did not test an interrupted undo", s.killed.Load())
		}
	})
}

// TestKillDuringEditingThenUndoRestoresExactly: whenever keel is killed
// during an editing task, one keel undo afterwards puts every file back
// as it was (the write in flight included), removes the files it
// created and any temp file a killed write left. A trial whose task
// ended before the kill is tried again with another moment.
func TestKillDuringEditingThenUndoRestoresExactly(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	var tally soakTally
	tally.log(t, "kill during editing")
	for trial := range soakTrials(100, 3) {
		t.Run(strconv.Itoa(trial), func(t *testing.T) {
			t.Parallel()
			tally.trials.Add(1)
			for attempt := range 3 {
				seed := uint64(time.Now().UnixNano()) + uint64(trial)<<8 + uint64(attempt)
				if killEditTrial(t, seed, &tally) {
					return
				}
			}
			t.Fatal("the task ended before the kill three times")
		})
	}
}

// killEditTrial runs one trial; false when the kill came too late.
func killEditTrial(t *testing.T, seed uint64, tally *soakTally) bool {
	rng := rand.New(rand.NewPCG(seed, 1))
	et := newEditTask(seed, 10, 30)
	home, dir := t.TempDir(), t.TempDir()
	et.write(t, dir)
	start := checksums(t, dir)
	kill, delay := 1+rng.IntN(len(et.rounds)-2), time.Duration(rng.IntN(40))*time.Millisecond
	if !killedTask(t, home, dir, et, kill, delay) {
		return false
	}
	tally.killed.Add(1)
	undo, ok := undoOnce(t, home, dir)
	if diff := sameTree(start, checksums(t, dir)); len(diff) > 0 || !ok {
		show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show")
		t.Fatalf("seed %d, killed at request %d + %s: after undo %v\nundo: %s\nlog:\n%s", seed, kill, delay, diff, undo, show)
	}
	tally.exact.Add(1)
	return true
}

// TestKillDuringUndoThenUndoFinishes: keel undo killed at a random moment
// of its restoring leaves the files half restored; the next keel undo
// finishes the job, and every file is as it was before the task. A trial
// whose undo ended before the kill is tried again, with a new task.
func TestKillDuringUndoThenUndoFinishes(t *testing.T) {
	t.Parallel()
	var tally soakTally
	tally.log(t, "kill during undo")
	tally.wantInterrupted(t)
	for trial := range soakTrials(50, 2) {
		t.Run(strconv.Itoa(trial), func(t *testing.T) {
			t.Parallel()
			tally.trials.Add(1)
			for attempt := range 3 {
				if killUndoTrial(t, uint64(time.Now().UnixNano())+uint64(trial)<<8+uint64(attempt), &tally) {
					return
				}
			}
			t.Fatal("the undo ended before the kill three times")
		})
	}
}

// killUndoTrial runs one trial; false when the undo ended before the kill.
func killUndoTrial(t *testing.T, seed uint64, tally *soakTally) bool {
	et := newEditTask(seed, 60, 40)
	home, dir := t.TempDir(), t.TempDir()
	et.write(t, dir)
	start := checksums(t, dir)
	if killedTask(t, home, dir, et, -1, 0) {
		t.Fatal("killed without being asked")
	}
	edited := checksums(t, dir)
	delay := time.Duration(rand.New(rand.NewPCG(seed, 2)).IntN(30)) * time.Millisecond
	cmd, out := startKeel(t, home, dir, llmtest.Start(t, llmtest.Rounds()), "undo")
	var exitErr error
	exited := make(chan struct{})
	go func() { exitErr = cmd.Wait(); close(exited) }()
	if !waitTreeChange(dir, edited, exited) { // the undo ended before it was seen restoring
		t.Logf("seed %d: undo ended before the kill: %s", seed, out)
		return false
	}
	time.Sleep(delay) // a random moment of the restoring, not a wait for state
	_ = cmd.Process.Signal(syscall.SIGKILL)
	if <-exited; exitErr == nil {
		if diff := sameTree(start, checksums(t, dir)); len(diff) > 0 {
			t.Fatalf("seed %d: an undo nobody killed left %v", seed, diff)
		}
		t.Logf("seed %d: undo ended %s after it began restoring, before the kill", seed, delay)
		return false
	}
	tally.killed.Add(1)
	undo, ok := undoOnce(t, home, dir)
	if strings.Contains(undo, "was interrupted") {
		tally.interrupted.Add(1)
	}
	if diff := sameTree(start, checksums(t, dir)); len(diff) > 0 || !ok {
		t.Fatalf("seed %d, undo killed %s after it began restoring: after the next undo %v\nundo: %s", seed, delay, diff, undo)
	}
	tally.exact.Add(1)
	return true
}

// waitTreeChange waits until a file under dir differs from was (undo is
// restoring) or the process exits first (false).
func waitTreeChange(dir string, was map[string]string, exited <-chan struct{}) bool {
	for {
		select {
		case <-exited:
			return false
		default:
		}
		if changedFrom(dir, was) {
			return true
		}
		time.Sleep(time.Millisecond)
	}
}

// changedFrom reports whether a file under dir was removed, added or
// changed since was (checksums' map); files vanishing mid-walk count.
func changedFrom(dir string, was map[string]string) bool {
	seen := 0
	changed := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			changed = true
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() { // checksums lists directories as "rel/"
			if _, ok := was[rel+"/"]; ok {
				seen++
			} else if p != dir {
				changed = true
				return filepath.SkipAll
			}
			return nil
		}
		b, rerr := os.ReadFile(p)
		sum := sha256.Sum256(b)
		if w, ok := was[rel]; rerr != nil || !ok || !strings.HasPrefix(w, hex.EncodeToString(sum[:8])) {
			changed = true
			return filepath.SkipAll
		}
		seen++
		return nil
	})
	return changed || seen != len(was)
}
