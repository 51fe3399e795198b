package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jobSet is a workspace's tools with background jobs on.
type jobSet struct {
	t     *testing.T
	ws    *Workspace
	jobs  *Jobs
	tools []Tool
}

func newJobSet(t *testing.T, opts JobsOptions) *jobSet {
	t.Helper()
	ws := newTestWS(t, nil)
	js := NewJobs(opts)
	t.Cleanup(js.StopAll)
	return &jobSet{t: t, ws: ws, jobs: js, tools: New(ws, Options{Jobs: js})}
}

func (s *jobSet) run(name string, args any) Result {
	s.t.Helper()
	tool, ok := Lookup(s.tools, name)
	if !ok {
		s.t.Fatalf("no tool %s", name)
	}
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), raw)
	if err != nil {
		s.t.Fatal(err)
	}
	return res
}

func (s *jobSet) start(command string) string {
	s.t.Helper()
	res := s.run(NameRunCommand, map[string]any{"command": command, "background": true})
	if res.IsError || res.Job == nil || !res.Job.Started {
		s.t.Fatalf("start %q: %+v", command, res)
	}
	return res.Job.ID
}

func TestJobOutputGrowsThenEnds(t *testing.T) {
	s := newJobSet(t, JobsOptions{})
	// The job prints a line, then waits for the test to create the next
	// file before printing the next: no timing involved.
	dir := s.ws.Root()
	id := s.start(`for i in 1 2 3; do echo "line $i"; while [ ! -e go$i ]; do sleep 0.01; done; done; exit 3`)
	var seen []string
	for i := 1; i <= 3; i++ {
		res := s.run(NameJobOutput, map[string]any{"job_id": id, "wait_seconds": 30})
		if res.IsError || !strings.Contains(res.Output, fmt.Sprintf("line %d", i)) || res.Job.NewBytes == 0 || !res.Job.Running {
			t.Fatalf("poll %d: %+v", i, res)
		}
		seen = append(seen, res.Output)
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("go%d", i)), "")
	}
	res := s.run(NameJobOutput, map[string]any{"job_id": id, "wait_seconds": 30})
	if res.Job.Running || !res.Job.Ended || res.Job.ExitCode != 3 || !strings.Contains(res.Output, "ended with exit code 3") {
		t.Fatalf("final poll: %+v", res)
	}
	again := s.run(NameJobOutput, map[string]any{"job_id": id})
	if again.Job.Ended || again.Job.NewBytes != 0 || !strings.Contains(again.Output, "(no new output)") {
		t.Errorf("a second read after the end: %+v", again)
	}
	if strings.Contains(seen[1], "line 1") {
		t.Errorf("the second poll repeated old output: %q", seen[1])
	}
}

func TestJobStopKillsTheProcessTree(t *testing.T) {
	s := newJobSet(t, JobsOptions{})
	pids := filepath.Join(s.ws.Root(), "pids")
	id := s.start(`sleep 1000 & echo $! > pids; (sleep 1000 & echo $! >> pids; wait) & echo started; wait`)
	res := s.run(NameJobOutput, map[string]any{"job_id": id, "wait_seconds": 30})
	if !strings.Contains(res.Output, "started") {
		t.Fatalf("poll: %+v", res)
	}
	procs := waitPids(t, pids, 2)
	stop := s.run(NameJobStop, map[string]any{"job_id": id})
	if stop.Job.Running || !strings.Contains(stop.Output, "stopped by job_stop") {
		t.Fatalf("stop: %+v", stop)
	}
	for _, pid := range procs {
		if !gone(pid) {
			t.Errorf("process %d outlived job_stop", pid)
		}
	}
}

func TestStopAllEndsJobsAndRefusesNew(t *testing.T) {
	s := newJobSet(t, JobsOptions{})
	s.start("sleep 1000")
	s.start("sleep 1000")
	if s.jobs.Running() != 2 {
		t.Fatalf("running %d", s.jobs.Running())
	}
	s.jobs.StopAll()
	for _, j := range s.jobs.List() {
		if j.Running || j.StoppedBy != "session end" {
			t.Errorf("after StopAll: %+v", j)
		}
	}
	res := s.run(NameRunCommand, map[string]any{"command": "true", "background": true})
	if !res.IsError {
		t.Errorf("a job started after StopAll: %+v", res)
	}
}

func TestJobsAreBounded(t *testing.T) {
	s := newJobSet(t, JobsOptions{MaxRunning: 2, BufferBytes: 64 << 10})
	s.start("sleep 1000")
	s.start("sleep 1000")
	res := s.run(NameRunCommand, map[string]any{"command": "sleep 1000", "background": true})
	if !res.IsError || !strings.Contains(res.Output, "2 are running, the most at once") {
		t.Errorf("third job: %+v", res)
	}
	// 50 MB through a 64 KiB buffer: the read says what was lost and
	// returns at most the buffer.
	s.jobs.StopAll()
	s = newJobSet(t, JobsOptions{BufferBytes: 64 << 10})
	id := s.start("head -c 50000000 /dev/zero | tr '\\0' x; echo; echo END")
	j, _ := s.jobs.get(id)
	<-j.done // read once, after the end: the reader fell 50 MB behind
	res2 := s.run(NameJobOutput, map[string]any{"job_id": id})
	if !strings.Contains(res2.Output, "bytes of output were not kept") || !strings.HasSuffix(res2.Output, "END") || len(res2.Output) > 70<<10 {
		t.Errorf("read after 50 MB: %d bytes, head %q", len(res2.Output), res2.Output[:min(200, len(res2.Output))])
	}
}

func TestJobOutputFilterAndErrors(t *testing.T) {
	s := newJobSet(t, JobsOptions{})
	id := s.start("printf 'ok 1\\nFAIL 2\\nok 3\\n'")
	var res Result
	var all strings.Builder
	for res.Job == nil || res.Job.Running {
		res = s.run(NameJobOutput, map[string]any{"job_id": id, "wait_seconds": 30, "filter": "^FAIL"})
		all.WriteString(res.Output)
	}
	if !strings.Contains(all.String(), "\nFAIL 2") || strings.Contains(all.String(), "\nok 1") {
		t.Errorf("filtered: %q", all.String())
	}
	for _, args := range []map[string]any{{"job_id": "99"}, {"job_id": id, "filter": "("}, {"job_id": id, "wait_seconds": 61}} {
		if r := s.run(NameJobOutput, args); !r.IsError {
			t.Errorf("%v: not an error: %q", args, r.Output)
		}
	}
}

func TestJobBufferKeepsTheLastBytes(t *testing.T) {
	b := newJobBuffer(8)
	for _, w := range []string{"abc", "defgh", "ijklmnopq", "r"} {
		b.Write([]byte(w))
	}
	text, lost, end := b.since(0)
	if string(text) != "klmnopqr" || lost != 10 || end != 18 {
		t.Errorf("since(0) = %q, %d, %d", text, lost, end)
	}
	text, lost, _ = b.since(15)
	if string(text) != "pqr" || lost != 0 {
		t.Errorf("since(15) = %q, %d", text, lost)
	}
	if text, _, _ := b.since(18); len(text) != 0 {
		t.Errorf("since(18) = %q, want nothing", text)
	}
}

// waitPids waits for a file listing n process ids.
func waitPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // guards against a hang only
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never listed %d processes", path, n)
	return nil
}

// gone waits until pid is dead: a SIGKILL is delivered at once but the
// process exits when next scheduled. The deadline only guards a hang.
func gone(pid int) bool {
	deadline := time.Now().Add(time.Minute)
	for alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(data), ") Z ")
}
