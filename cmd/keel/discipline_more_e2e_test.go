package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestVerifyRunnersThroughTheBinary: a passing run of each common test
// runner after an edit verifies it (no reminder at the end of the turn);
// a passing command that checks nothing does not. The runners are
// scripts on PATH that pass: what is judged is the command line.
func TestVerifyRunnersThroughTheBinary(t *testing.T) {
	runners := []string{"pytest -q", "tox -e py", "nox -s tests", "npm test", "pnpm test", "yarn test", "jest --ci",
		"vitest run", "cargo test", "cargo check", "cargo clippy", "go test ./...", "go vet ./...", "go build ./...",
		"make test", "make check", "mvn test", "mvn -q verify", "gradle test", "gradle check", "dotnet test", "ctest",
		"rspec", "phpunit", "mix test", "swift test", "./gradlew :app:test", "yarn vitest run"}
	files := map[string]string{"calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
		"gradlew": "#!/bin/sh\necho BUILD SUCCESSFUL\n"}
	edit := tc("edit_file", "path", "calc.go", "old_string", "a - b", "new_string", "a + b")
	var cases []binCase
	for _, cmd := range runners {
		prog := strings.Fields(cmd)[0]
		run := cmd
		if prog == "./gradlew" {
			run, prog = "chmod +x gradlew && "+cmd, "true"
		}
		cases = append(cases, binCase{name: cmd, files: files, bin: map[string]string{prog: "echo \"$0 $*: ok\"\n"},
			rounds: calls("fixed and checked", tc("read_file", "path", "calc.go"), edit, runCmd(run, "")),
			fired:  []string{}, stop: "completed"})
	}
	cases = append(cases, binCase{name: "npm install checks nothing", files: files, bin: map[string]string{"npm": "echo ok\n"},
		rounds: append(calls("fixed", tc("read_file", "path", "calc.go"), edit, runCmd("npm install", "")), llmtest.TextRound("fixed, unchecked")),
		fired:  []string{"verify@3"}, stop: "completed"})
	runBinCases(t, cases)
}

// TestIdentityAndReadsThroughTheBinary: a command run with other
// environment assignments, or after a cd into another directory, is
// another command; the same lines read in more spellings (a cd, a
// workdir, sed's other forms, awk's if, stdin, a discarded stderr) are
// one repeated read.
func TestIdentityAndReadsThroughTheBinary(t *testing.T) {
	fails := "echo 'check: expected 2, got 3' >&2\nexit 1\n"
	five := map[string]string{"check.sh": fails}
	var envs, cds []llmtest.Call
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		five["pkg/"+p+"/check.sh"] = fails
		envs = append(envs, runCmd("PKG="+p+" bash check.sh", ""))
		cds = append(cds, runCmd("cd pkg/"+p+" && bash check.sh", ""))
	}
	sub := map[string]string{"sub/a.go": numbered(40)}
	same := []llmtest.Call{
		tc("read_file", "path", "sub/a.go", "offset", 5, "limit", 6),
		runCmd("sed '5,10!d' a.go", "sub"),
		runCmd("cd sub && awk '{if (NR>=5 && NR<=10) print}' a.go", ""),
		runCmd("sed -n '5,+5p' < sub/a.go", ""),
		runCmd("head -n 10 sub/a.go 2>/dev/null | tail -n 6", ""),
	}
	runBinCases(t, []binCase{
		{name: "one check with five environments, failing alike", files: five, rounds: calls("all five fail", envs...),
			fired: []string{}, stop: "completed"},
		{name: "one check after a cd into five directories, failing alike", files: five, rounds: calls("all five fail", cds...),
			fired: []string{}, stop: "completed"},
		{name: "the same lines in five more spellings", files: sub, rounds: calls("never reached", same...),
			fired: []string{"reread@3", "halt@4"}, stop: "loop_detected"},
	})
}

// TestDetachedCommandIsToldAboutJobs: a command that puts a server in the
// background its own way (nohup … &) has it stopped when it returns, and
// its result tells the model how to keep one running (background: true).
func TestDetachedCommandIsToldAboutJobs(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	c := binCase{name: "nohup &", rounds: calls("started",
		runCmd("nohup sh -c 'echo $$ > server.pid; exec sleep 1000' > server.log 2>&1 & until [ -s server.pid ]; do sleep 0.05; done", "")),
		fired: []string{}, stop: "completed"}
	r := runBin(t, c)
	res := r.toolResults("run_command")
	if len(res) != 1 || !strings.Contains(fmt.Sprint(res[0]["output"]), "background: true") {
		t.Errorf("the result does not say how to keep it running: %v", res)
	}
	// The command waited for the pid, so the server was running when the
	// command returned; then it was stopped.
	data, err := os.ReadFile(filepath.Join(r.dir, "server.pid"))
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err != nil || pid <= 0 || !processGone(pid) {
		t.Errorf("the detached process %q outlived its command", data)
	}
}
