package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// Background jobs through the real binary: run_command with background
// true, job_output while the output grows, job_stop, the end of the
// session, a job printing 500 MB, and the job's whole process tree.

// lastTool is the content of the request's last tool result.
func lastTool(req llmtest.RecordedRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// gate lets a job's next step run: the job waits for the file.
func gate(dir string, i int) {
	os.WriteFile(filepath.Join(dir, fmt.Sprintf(".gate%d", i)), nil, 0o644)
}

// gatedBuild prints a line, waits for the next gate file, five times, so
// the test decides when output grows (no timing).
const gatedBuild = "for i in 1 2 3 4 5; do echo \"compiling unit $i\"; while [ ! -e .gate$i ]; do sleep 0.02; done; done; echo 'build ok'\n"

func TestJobPolledWhileItsOutputGrows(t *testing.T) {
	poll := tc("job_output", "job_id", "1", "wait_seconds", 30)
	c := binCase{name: "poll while it grows", files: map[string]string{"build.sh": gatedBuild},
		handle: func(dir string, n int, req llmtest.RecordedRequest) llmtest.Round {
			switch {
			case n == 0:
				return llmtest.ToolRound(tc("run_command", "command", "bash build.sh", "background", true))
			case n == 1:
				return llmtest.ToolRound(poll)
			case strings.Contains(lastTool(req), "ended with exit code"):
				return llmtest.TextRound("the build passed")
			}
			gate(dir, n-1) // the build goes on while keel waits on it
			return llmtest.ToolRound(poll)
		}}
	r := runBin(t, c)
	if r.code != 0 || r.result["stop_reason"] != "completed" || len(r.fired()) != 0 {
		t.Fatalf("exit %d, stop %v, fired %v; stderr %s", r.code, r.result["stop_reason"], r.fired(), r.stderr)
	}
	polls := r.toolResults("job_output")
	if len(polls) < 6 || len(polls) > 7 { // "build ok" may come with the end or just before it
		t.Fatalf("%d polls, want 6 or 7", len(polls))
	}
	var all strings.Builder
	for i, p := range polls {
		out := fmt.Sprint(p["output"])
		all.WriteString(out)
		if i < 5 && (!strings.Contains(out, fmt.Sprintf("compiling unit %d", i+1)) || strings.Contains(out, fmt.Sprintf("unit %d\n", i))) {
			t.Errorf("poll %d: %q", i+1, out)
		}
	}
	if last := fmt.Sprint(polls[len(polls)-1]["output"]); !strings.Contains(last, "ended with exit code 0") || strings.Count(all.String(), "build ok") != 1 {
		t.Errorf("polls: %q", all.String())
	}
	jobLines := 0
	for _, l := range r.lines {
		if l["type"] == "job" {
			jobLines++
		}
	}
	var cmd string
	var code int
	if err := r.db(t).QueryRow(`SELECT command, exit_code FROM jobs`).Scan(&cmd, &code); err != nil || cmd != "bash build.sh" || code != 0 || jobLines != 2 {
		t.Errorf("datalog job %q exit %d (%v); %d job lines in the stream, want its start and end", cmd, code, err, jobLines)
	}
}

func TestJobSilentPollsNudgeNeverHalt(t *testing.T) {
	poll := tc("job_output", "job_id", "1")
	rounds := []llmtest.Round{llmtest.ToolRound(tc("run_command", "command", "sleep 1000", "background", true))}
	for range 7 {
		rounds = append(rounds, llmtest.ToolRound(poll))
	}
	rounds = append(rounds, llmtest.ToolRound(tc("job_stop", "job_id", "1")), llmtest.TextRound("it hangs; stopped it"))
	runBinCases(t, []binCase{{name: "a silent job polled seven times", rounds: rounds,
		fired: []string{"job_poll@4", "job_poll@7"}, stop: "completed"}})
}

// The job's tree: job_stop kills the command and what it started, even a
// process that left the process group.
func TestJobStopKillsTheTree(t *testing.T) {
	// "started" only once all three have written their pid: the
	// subshell may run after the line that follows it.
	tree := "sleep 1000 & echo $! > pids\nsetsid sleep 1000 & echo $! >> pids\n(sleep 1000 & echo $! >> pids; wait) &\n" +
		"while [ \"$(wc -l < pids)\" -lt 3 ]; do sleep 0.01; done\necho started\nwait\n"
	c := binCase{name: "stop", files: map[string]string{"tree.sh": tree},
		rounds: []llmtest.Round{
			llmtest.ToolRound(tc("run_command", "command", "bash tree.sh", "background", true)),
			llmtest.ToolRound(tc("job_output", "job_id", "1", "wait_seconds", 30)),
			llmtest.ToolRound(tc("job_stop", "job_id", "1")),
			llmtest.TextRound("stopped"),
		}}
	r := runBin(t, c)
	stop := r.toolResults("job_stop")
	if r.result["stop_reason"] != "completed" || len(stop) != 1 || !strings.Contains(fmt.Sprint(stop[0]["output"]), "stopped by job_stop") {
		t.Fatalf("stop %v, job_stop %v; stderr %s", r.result["stop_reason"], stop, r.stderr)
	}
	for _, pid := range readPids(t, filepath.Join(r.dir, "pids"), 3) {
		if !processGone(pid) {
			t.Errorf("process %d outlived job_stop", pid)
		}
	}
}

// The end of the session stops what still runs, and the datalog says so.
func TestSessionEndStopsJobs(t *testing.T) {
	c := binCase{name: "end", rounds: []llmtest.Round{
		llmtest.ToolRound(tc("run_command", "command", "sleep 1000 & echo $! > pid; echo up; wait", "background", true)),
		llmtest.ToolRound(tc("job_output", "job_id", "1", "wait_seconds", 30)),
		llmtest.TextRound("left it running"),
	}}
	r := runBin(t, c)
	if r.result["stop_reason"] != "completed" {
		t.Fatalf("stop %v; stderr %s", r.result["stop_reason"], r.stderr)
	}
	for _, pid := range readPids(t, filepath.Join(r.dir, "pid"), 1) {
		if !processGone(pid) {
			t.Errorf("process %d outlived keel", pid)
		}
	}
	var by string
	if err := r.db(t).QueryRow(`SELECT stopped_by FROM jobs WHERE ended_at IS NOT NULL`).Scan(&by); err != nil || by != "session end" {
		t.Errorf("datalog: stopped_by %q (%v)", by, err)
	}
}

// A job printing 500 MB costs keel a bounded buffer: keel's peak memory
// (its own, read from /proc when the job has ended, not its children's)
// stays far below what went through, and the read says what was lost.
func TestJobPrinting500MBIsBounded(t *testing.T) {
	dir := t.TempDir()
	var keelPid atomic.Int64
	var peak atomic.Int64
	// The job prints once the model lets it; the model waits for its end
	// with a command, then reads once: 500 MB went by unread.
	job := "while [ ! -e .go ]; do sleep 0.02; done; head -c 500000000 /dev/zero | tr '\\0' x; echo; echo END; touch printed"
	srv := llmtest.Start(t, llmtest.Script{Handler: func(req llmtest.RecordedRequest, n int) llmtest.Round {
		switch {
		case n == 0:
			return llmtest.ToolRound(tc("run_command", "command", job, "background", true))
		case n == 1:
			return llmtest.ToolRound(tc("run_command", "command", "touch .go; while [ ! -e printed ]; do sleep 0.05; done"))
		case strings.Contains(lastTool(req), "ended with exit code"):
			peak.Store(vmHWM(int(keelPid.Load())))
			return llmtest.TextRound("done")
		}
		return llmtest.ToolRound(tc("job_output", "job_id", "1", "wait_seconds", 60))
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // guards a hang only
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, keelBinary(t), "-p", "go", "--output-format", "json", "--yolo")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "OPENAI_API_KEY=sk-test-e2e-secret-123456", "OPENAI_BASE_URL=" + srv.URL()}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	keelPid.Store(int64(cmd.Process.Pid))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("keel: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), `"stop_reason": "completed"`) && !strings.Contains(out.String(), `"stop_reason":"completed"`) {
		t.Fatalf("result: %s", out.String())
	}
	var saw bool
	for _, req := range srv.Requests() {
		last := lastTool(req)
		saw = saw || (strings.Contains(last, "bytes of output were not kept") && strings.Contains(last, "END"))
	}
	if !saw {
		t.Error("no read said what was lost and showed the end")
	}
	if p := peak.Load(); p <= 0 || p > 100<<20 {
		t.Errorf("keel's peak memory %d MB while a job printed 500 MB", p>>20)
	}
	t.Logf("keel's peak RSS after 500 MB: %d MB", peak.Load()>>20)
}

// vmHWM is a process's peak resident memory in bytes, from /proc.
func vmHWM(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return -1
}

// readPids reads at least n process ids from a file the job wrote.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	if len(pids) < n {
		t.Fatalf("%s lists %d processes, want %d", path, len(pids), n)
	}
	return pids
}

// processGone waits for pid to be dead or a zombie; the deadline only
// guards a hang (a killed process exits when next scheduled).
func processGone(pid int) bool {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(data), ") Z ") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// Waiting for a server started as a background job: the check fails
// (with a new text each time) until the server is up, while the job
// prints between the checks (the model reads it with job_output, which
// waits for each new line). That is progress, not a rerun loop, though no
// file changes until the server is up.
func TestWaitingOnAJobIsNotARerunLoop(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	// The job warms up until the fake model has handed out four checks
	// (the file go), so the checks happen however slow the machine is.
	job := "while [ ! -f go ]; do echo warming up; sleep 0.3; done; touch ready; echo up; sleep 1000"
	check := tc("run_command", "command", "test -f ready && echo up || { echo \"not ready: $(echo $$ | tr 0-9 a-j)\"; exit 1; }")
	poll := tc("job_output", "job_id", "1", "wait_seconds", 30)
	checks := 0
	c := binCase{name: "waiting on a job", handle: func(dir string, n int, req llmtest.RecordedRequest) llmtest.Round {
		last := lastTool(req)
		switch {
		case n == 0:
			return llmtest.ToolRound(tc("run_command", "command", job, "background", true))
		case strings.HasPrefix(last, "up"):
			return llmtest.TextRound("the server is up")
		case strings.HasPrefix(last, "job 1"):
			if checks++; checks == 4 {
				if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
					t.Error(err)
				}
			}
			return llmtest.ToolRound(check) // after a poll, check again
		}
		return llmtest.ToolRound(poll) // after the start or a failed check, wait for news
	}}
	r := runBin(t, c)
	guards := 0
	for _, in := range r.of("") {
		if in["kind"] != "reflection" { // checkpoints come every 10 calls, as ever
			guards++
		}
	}
	if r.result["stop_reason"] != "completed" || guards != 0 {
		t.Errorf("stop %v, fired %v: waiting on a job that prints is not a loop", r.result["stop_reason"], r.fired())
	}
	if n := len(r.toolResults("run_command")); n < 5 {
		t.Errorf("%d commands ran, want the start and at least four checks (the rerun stop would come at the 4th)", n)
	}
}
