package discipline

import "testing"

// Real outputs (trimmed of nothing that matters), as run_command returns
// them with keel's footer.
const (
	pyTraceback = `Traceback (most recent call last):
  File "/w/s1.py", line 3, in <module>
    print(ratio(1, 0))
          ^^^^^^^^^^^
  File "/w/s1.py", line 2, in ratio
    return a / b
           ~~^~~
ZeroDivisionError: division by zero
[exit code 1, 0.0s]`
	goTestFail  = "--- FAIL: TestAdd (0.00s)\n    a_test.go:3: Add(1, 2) = -1, want 3\nFAIL\nFAIL\texample.com/ft/a\t0.005s\nFAIL\n[exit code 1, 0.4s]"
	goBuildFail = "# example.com/ft/b\nb/b.go:2:23: undefined: undefinedThing\nFAIL\texample.com/ft/b [build failed]\nFAIL\n[exit code 1, 0.2s]"
	goPanic     = `--- FAIL: TestGet (0.00s)
panic: runtime error: index out of range [5] with length 3 [recovered, repanicked]

goroutine 20 [running]:
testing.tRunner.func1.2({0x574440, 0xe87e6a6a000})
	/usr/local/go/src/testing/testing.go:1974 +0x232
panic({0x574440?, 0xe87e6a6a000?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/ft/c.Get(...)
	/w/c/c.go:2
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL	example.com/ft/c	0.013s
FAIL
[exit code 1, 0.5s]`
	pytestFail = `============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
collected 1 item

test_a.py F                                                              [100%]

=================================== FAILURES ===================================
____________________________________ test_x ____________________________________

    def test_x():
>       assert add(1, 2) == 4
E       assert 3 == 4
E        +  where 3 = add(1, 2)

test_a.py:4: AssertionError
=========================== short test summary info ============================
FAILED test_a.py::test_x - assert 3 == 4
============================== 1 failed in 0.01s ===============================
[exit code 1, 0.3s]`
	npmJest = `> calc@1.0.0 test
> jest

FAIL ./sum.test.js
  ● adds 1 + 2 to equal 3

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 4

      at Object.<anonymous> (sum.test.js:3:17)

Tests:       1 failed, 1 total
Ran all test suites.
npm ERR! Test failed.  See above for more details.
[exit code 1, 1.2s]`
	nodeError = `node:internal/modules/cjs/loader:1080
  throw err;
  ^

Error: Cannot find module 'left-pad'
Require stack:
- /w/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)
    at Module._load (node:internal/modules/cjs/loader:922:27)

Node.js v18.19.0
[exit code 1, 0.1s]`
	cargoFail = "   Compiling calc v0.1.0 (/w)\nerror[E0425]: cannot find value `y` in this scope\n --> src/lib.rs:2:9\n  |\n2 |     x + y\n  |         ^ not found in this scope\n\nFor more information about this error, try `rustc --explain E0425`.\nerror: could not compile `calc` (lib) due to 1 previous error\n[exit code 101, 0.9s]"
	makeFail  = "cc -c main.c\nmain.c:3:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n1 error generated.\nmake: *** [Makefile:2: main.o] Error 1\n[exit code 2, 0.1s]"
	tscFail   = "src/index.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.\n[exit code 2, 1.5s]"
	silent    = "(no output)\n[exit code 1, 0.0s]"
)

func TestFailureLine(t *testing.T) {
	tests := []struct{ name, out, want string }{
		{"python traceback", pyTraceback, "ZeroDivisionError: division by zero"},
		{"go test failure", goTestFail, "a_test.go:3: Add(1, 2) = -1, want 3"},
		{"go build failure", goBuildFail, "b/b.go:2:23: undefined: undefinedThing"},
		{"go test panic", goPanic, "panic: runtime error: index out of range [5] with length 3 [recovered, repanicked]"},
		{"pytest", pytestFail, "FAILED test_a.py::test_x - assert 3 == 4"},
		{"npm test with jest", npmJest, "● adds 1 + 2 to equal 3"},
		{"node missing module", nodeError, "Error: Cannot find module 'left-pad'"},
		{"cargo", cargoFail, "error[E0425]: cannot find value `y` in this scope"},
		{"make with a C error", makeFail, "main.c:3:5: error: use of undeclared identifier 'x'"},
		{"tsc", tscFail, "src/index.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'."},
		{"no output", silent, "(no output)"},
		{"one line", "  permission denied  ", "permission denied"},
		{"empty", "", ""},
		{"only generic lines", "Traceback (most recent call last):\nFAIL\n", "Traceback (most recent call last):"},
		{"no error words: the last plain line", "building\nlinking\nsomething odd happened\n[exit code 3, 0.0s]", "something odd happened"},
		{"timeout footer", "running...\n[timed out after 2m0s; process group killed. Use a longer timeout_seconds or run less at once]", "[timed out after 2m0s; process group killed. Use a longer timeout_seconds or run less at once]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FailureLine(tt.out); got != tt.want {
				t.Errorf("FailureLine = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNormalizeFailure(t *testing.T) {
	for in, want := range map[string]string{
		"a_test.go:12: got 5, want 6":                        "a_test.go:12: got N, want N",
		"p1_test.go:30: got 5":                               "p1_test.go:30: got N",
		"src/lib.rs:2:9: error":                              "src/lib.rs:2:9: error",
		"/tmp/go-build123/b001/x_test.go:12: got 5":          "<tmp>:N: got N",
		"panic at 0xc000123 pid 4411":                        "panic at <addr> pid N",
		"listen tcp 127.0.0.1:43567: address already in use": "listen tcp N.N.N.N:N: address already in use",
		"  spaced   out  ":                                   " spaced out ",
	} {
		if got := normalizeFailure(in); got != want {
			t.Errorf("normalizeFailure(%q) = %q, want %q", in, got, want)
		}
	}
}
