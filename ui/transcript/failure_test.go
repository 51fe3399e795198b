package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFailureLines: real outputs of failed commands (testdata/failures,
// captured from go test, python3 and ls as run_command reports them)
// preview the lines that explain the failure.
func TestFailureLines(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"gotest_fail", []string{"--- FAIL: TestHello (0.00s)", `    hello_test.go:7: Hello() = "hi", want "hello"`,
			"FAIL\texample.com/greet/hello\t0.015s"}},
		{"gotest_build", []string{"hello/hello.go:3:30: undefined: hi", "FAIL\texample.com/greet [build failed]",
			"FAIL\texample.com/greet/hello [build failed]"}},
		{"gotest_panic", []string{"--- FAIL: TestPanic (0.00s)", "panic: assignment to entry in nil map [recovered, repanicked]",
			"FAIL\texample.com/greet/hello\t0.008s"}},
		{"python_traceback", []string{`  File "/tmp/greet/main.py", line 11, in main`,
			"ValueError: invalid literal for int() with base 10: 'eighty'"}},
		{"python_unittest", []string{"FAIL: test_add (test_calc.TestCalc.test_add)", `  File "/tmp/greet/test_calc.py", line 10, in test_add`,
			"AssertionError: 4 != 3", "FAILED (failures=1)"}},
		{"ls_missing", []string{"ls: cannot access '/nonexistent-dir': No such file or directory"}},
		{"silent", []string{"(no output)"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("testdata", "failures", tt.file+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := failureLines(string(out)); !slices.Equal(got, tt.want) {
				t.Errorf("failureLines:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestFailureLinesCapAndTail: many failures show the first few; output
// with no telling line shows its last lines.
func TestFailureLinesCapAndTail(t *testing.T) {
	many := "--- FAIL: TestA (0.00s)\n    a_test.go:1: a\n--- FAIL: TestB (0.00s)\n    b_test.go:2: b\n--- FAIL: TestC (0.00s)\nFAIL\n[exit code 1, 0.2s]"
	if got := failureLines(many); len(got) != maxFailureLines || got[0] != "--- FAIL: TestA (0.00s)" {
		t.Errorf("many failures: %q", got)
	}
	plainOut := "step 1\nstep 2\n\nstep 3\nstep 4\nstep 5\n[exit code 3, 0.1s]"
	if got, want := failureLines(plainOut), []string{"step 3", "step 4", "step 5"}; !slices.Equal(got, want) {
		t.Errorf("tail: %q, want %q", got, want)
	}
}

// TestFailurePreviewOtherTools: a failed edit keeps its first line, the
// one that says what went wrong, not its last candidate lines.
func TestFailurePreviewOtherTools(t *testing.T) {
	out := "edit of a.go not applied: old_string was not found\nclosest candidates:\n  12: func a() {\n  40: func b() {"
	tc := &toolCall{name: "edit_file", output: out, state: toolFailed}
	if got, want := tc.failurePreview(), []string{"edit of a.go not applied: old_string was not found"}; !slices.Equal(got, want) {
		t.Errorf("preview = %q, want %q", got, want)
	}
}
