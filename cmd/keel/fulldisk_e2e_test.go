package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The datalog on a full filesystem: a small tmpfs holds keel's data
// directory (the datalog and the last-task notes), and a filler file
// takes its free space. Needs mount(2) (root, or CAP_SYS_ADMIN); skipped
// with the reason otherwise.

// fullDiskHome is a home whose data directory is a 4 MB tmpfs, with
// task A's datalog on it (one file written); the tmpfs is unmounted at
// cleanup.
func fullDiskHome(t *testing.T) (home, dir string) {
	t.Helper()
	home, dir = t.TempDir(), project(t)
	data := filepath.Join(home, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", data, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("a small tmpfs cannot be mounted here (%v): the full-disk test needs root or CAP_SYS_ADMIN", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(data, syscall.MNT_DETACH) })
	srv := llmtest.Start(t, llmtest.Rounds(writeCall("a.txt"), llmtest.TextRound("a")))
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "write a", "--yolo"); code != 0 {
		t.Fatalf("task A: %d %s", code, errOut)
	}
	return home, dir
}

// fill takes every free byte of the filesystem holding dir and returns
// the filler's path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for _, n := range []int{4096, 512, 1} { // the last partial blocks
		for {
			if _, err := f.Write(block[:n]); err != nil {
				break
			}
		}
	}
	return p
}

// editRounds is a task of n rounds, each writing a 20 KB file bN.txt.
func editRounds(n int) []llmtest.Round {
	var rounds []llmtest.Round
	for i := range n {
		body := strings.Repeat(fmt.Sprintf("file %d line\n", i), 1500)
		args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("b%d.txt", i), "content": body})
		rounds = append(rounds, llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: string(args)}))
	}
	return append(rounds, llmtest.TextRound("wrote them"))
}

// fillingServer serves rounds, and fills the filesystem at data (the
// filler's path goes to filler) when the first request arrives: keel has
// opened its datalog by then.
func fillingServer(t *testing.T, data string, rounds []llmtest.Round, filler chan<- string) *llmtest.Server {
	return llmtest.Start(t, llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n == 0 {
			filler <- fill(t, data)
		}
		if n < len(rounds) {
			return rounds[n]
		}
		return llmtest.TextRound("done")
	}})
}

// fullDiskResult is the JSON result's fields these tests read.
type fullDiskResult struct {
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	IsError   bool   `json:"is_error"`
}

// loggedRounds is how many rounds keel log has of session id.
func loggedRounds(t *testing.T, home, dir, id string) int {
	t.Helper()
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "show", id, "--json")
	if code != 0 {
		return -1 // not in the datalog at all
	}
	var d struct {
		Rounds []json.RawMessage `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("log show: %v %s", err, errOut)
	}
	return len(d.Rounds)
}

// TestFullDiskNeverEndsSuccessWithRoundsLost: with the disk full from
// the start (the datalog cannot even be opened) or from the first
// request on, keel says so on stderr, makes no change undo could not
// restore and ends with error_datalog, non-zero.
func TestFullDiskNeverEndsSuccessWithRoundsLost(t *testing.T) {
	t.Parallel()
	for _, when := range []string{"from the start", "during the task"} {
		t.Run(when, func(t *testing.T) {
			t.Parallel()
			home, dir := fullDiskHome(t)
			data := filepath.Join(home, "data")
			fillers := make(chan string, 1)
			srv := fillingServer(t, data, editRounds(8), fillers)
			if when == "from the start" {
				srv = llmtest.Start(t, llmtest.Rounds(editRounds(8)...))
				fillers <- fill(t, data)
			}
			out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "write the files", "--yolo", "--output-format", "json")
			os.Remove(<-fillers)
			var res fullDiskResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("exit %d, no JSON result: %v\n%s\n%s", code, err, out, errOut)
			}
			if res.Subtype == "success" {
				n, want := loggedRounds(t, home, dir, res.SessionID), len(srv.Requests())
				t.Fatalf("the disk was full, yet the task succeeded with %d of %d rounds in the datalog: %s", n, want, errOut)
			}
			if code == 0 || res.Subtype != "error_datalog" || !res.IsError {
				t.Errorf("exit %d subtype %q is_error %v, want non-zero error_datalog", code, res.Subtype, res.IsError)
			}
			if !strings.Contains(errOut, "datalog cannot save") && !strings.Contains(errOut, "datalog cannot be opened") {
				t.Errorf("stderr does not say the datalog cannot save: %s", errOut)
			}
			if files, _ := filepath.Glob(filepath.Join(dir, "b*.txt")); len(files) > 0 {
				t.Errorf("keel wrote %v while it could not record them", files)
			}
		})
	}
}

// TestFullDiskCatchesUpWhenSpaceReturns: the disk fills at the task's
// first request and is freed once keel has said it cannot save: keel catches up, the
// task succeeds with every round in the datalog, and undo restores.
func TestFullDiskCatchesUpWhenSpaceReturns(t *testing.T) {
	t.Parallel()
	home, dir := fullDiskHome(t)
	before := checksums(t, dir)
	fillers := make(chan string, 1)
	srv := fillingServer(t, filepath.Join(home, "data"), editRounds(6), fillers)
	cmd := exec.Command(keelBinary(t), "-p", "write the files", "--yolo", "--output-format", "json")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=sk-fulldisk"}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var said []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() { // the outage's line comes before any file is written
		said = append(said, sc.Text())
		if strings.Contains(sc.Text(), "datalog cannot save") {
			os.Remove(<-fillers)
			break
		}
	}
	for sc.Scan() {
		said = append(said, sc.Text())
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(3 * time.Minute): // a guard against a hang only
		_ = cmd.Process.Kill()
		t.Fatalf("keel did not end; stderr:\n%s", strings.Join(said, "\n"))
	}
	var res fullDiskResult
	if jerr := json.Unmarshal([]byte(stdout.String()), &res); jerr != nil || err != nil || res.Subtype != "success" {
		t.Fatalf("exit %v, result %+v (%v); stderr:\n%s", err, res, jerr, strings.Join(said, "\n"))
	}
	if n, want := loggedRounds(t, home, dir, res.SessionID), len(srv.Requests()); n != want {
		t.Errorf("success with %d of %d rounds in the datalog", n, want)
	}
	if !strings.Contains(strings.Join(said, "\n"), "saving again") {
		t.Errorf("keel never said the datalog saves again:\n%s", strings.Join(said, "\n"))
	}
	if undo, errOut, code := runKeelHome(t, home, nil, dir, "", "undo"); code != 0 {
		t.Fatalf("undo: %d %s %s", code, undo, errOut)
	}
	if diff := sameTree(before, checksums(t, dir)); len(diff) > 0 {
		t.Errorf("after undo: %v", diff)
	}
}

// TestFullDiskAsksInTheTUIInTmux: in the TUI, a datalog that cannot save
// shows a banner, and a change it cannot record is asked about (with
// --yolo too: undo could not restore it); allowed, it is made and keel
// says undo will not restore it.
func TestFullDiskAsksInTheTUIInTmux(t *testing.T) {
	t.Parallel()
	home, dir := fullDiskHome(t)
	fillers := make(chan string, 1)
	srv := fillingServer(t, filepath.Join(home, "data"), editRounds(1), fillers)
	t.Cleanup(func() {
		select {
		case f := <-fillers:
			os.Remove(f)
		default:
		}
	})
	tm := startTmux(t, tmuxEnv(home, srv), dir, "--yolo")
	tm.waitFor("Ask keel")
	tm.keys("write the file", "Enter")
	tm.waitFor("⚠ keel's datalog cannot save", "Allow write_file?", "keel undo could not restore it")
	tm.keys("a")
	tm.waitFor("without a record: keel undo will not restore it")
	if _, err := os.Stat(filepath.Join(dir, "b0.txt")); err != nil {
		t.Errorf("the allowed change was not made: %v", err)
	}
}
