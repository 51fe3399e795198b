package discipline

import (
	"slices"
	"strings"
	"testing"
)

func TestVerify(t *testing.T) {
	const a, b = "/w/pkg/a.go", "/w/pkg/b.go"
	pass := cmdCall("go test ./...", 0, "ok")
	fail := cmdCall("go test ./...", 1, "FAIL")
	tests := []struct {
		name   string
		rounds [][]ToolCall // nil entry: the model ends its turn
		verify []int        // rounds (0-based) where verify fired
	}{
		{"edit then end", [][]ToolCall{{editCall(a, "x", "y")}, nil}, []int{1}},
		{"edit, failing test, end", [][]ToolCall{{editCall(a, "x", "y")}, {fail}, nil}, []int{2}},
		{"edit, test passes, edit again, end", [][]ToolCall{{editCall(a, "x", "y")}, {pass}, {editCall(b, "x", "y")}, nil}, []int{3}},
		{"ls and cat are not verification", [][]ToolCall{{editCall(a, "x", "y")}, {cmdCall("ls", 0, "a.go")}, {cmdCall("cat pkg/a.go", 0, "...")}, nil}, []int{1 + 2}},
		{"one message per batch", [][]ToolCall{{editCall(a, "x", "y")}, nil, nil}, []int{1}},
		{"a new batch gets a new message", [][]ToolCall{{editCall(a, "x", "y")}, nil, {editCall(b, "x", "y")}, nil}, []int{1, 3}},
		// must not fire
		{"edit, test fails, edit, test passes, end", [][]ToolCall{{editCall(a, "x", "y")}, {fail}, {editCall(a, "y", "z")}, {pass}, nil}, []int{}},
		{"edit and test in one round", [][]ToolCall{{editCall(a, "x", "y"), pass}, nil}, []int{}},
		{"test before the edit in one round does not count", [][]ToolCall{{pass, editCall(a, "x", "y")}, nil}, []int{1}},
		{"check inside a command list", [][]ToolCall{{editCall(a, "x", "y")}, {cmdCall("cd pkg && GOFLAGS=-count=1 go vet ./...", 0, "")}, nil}, []int{}},
		{"no edits", [][]ToolCall{{readCall(a, "v", 1, 9, 9)}, nil}, []int{}},
		{"prose only", [][]ToolCall{{editCall("/w/README.md", "x", "y")}, nil}, []int{}},
		{"not before the turn ends", [][]ToolCall{{editCall(a, "x", "y")}, {readCall(b, "v", 1, 9, 9)}}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newSession(t, quiet())
			x.p.Set("plan_continue", false)
			var got []int
			for i, r := range tt.rounds {
				var ins []Intervention
				if r == nil {
					ins = x.end()
				} else {
					ins = x.round(r...)
				}
				if hasKind(ins, KindVerify) {
					got = append(got, i)
				}
			}
			if got == nil {
				got = []int{}
			}
			if !slices.Equal(got, tt.verify) {
				t.Errorf("verify in rounds %v, want %v", got, tt.verify)
			}
		})
	}
}

func TestVerifyMessageNamesFiles(t *testing.T) {
	x := newSession(t, quiet())
	x.round(editCall("/w/a/main.go", "x", "y"), editCall("/w/b/main.go", "x", "y"))
	ins := of(x.end(), KindVerify)
	if len(ins) != 1 {
		t.Fatalf("want one verify, got %v", kindsOf(x.fired))
	}
	for _, want := range []string{"a/main.go", "b/main.go"} {
		if !strings.Contains(ins[0].Message, want) {
			t.Errorf("message %q lacks %q", ins[0].Message, want)
		}
	}
	x.p.Set("verify", false)
	x.round(editCall("/w/c.go", "x", "y"))
	if hasKind(x.end(), KindVerify) {
		t.Error("verify fired while disabled")
	}
}

func TestIsVerifying(t *testing.T) {
	pats := DefaultVerifyPatterns()
	for cmd, want := range map[string]bool{
		"go test ./...":                 true,
		"go build":                      true,
		"cd sub && cargo test -q":       true,
		"CI=1 npm test":                 true,
		"timeout 60 pytest -x":          true,
		"make check":                    true,
		"ls":                            false,
		"cat main.go":                   false,
		"go run .":                      false,
		"echo go test":                  false,
		"gotest":                        false,
		"go testdata":                   false,
		"git commit -m 'go test later'": false,
	} {
		if got := IsVerifying(cmd, pats); got != want {
			t.Errorf("IsVerifying(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// Running the edited script and seeing it succeed checks it; running
// another file, or failing, does not.
func TestRunningAnEditedScriptVerifiesIt(t *testing.T) {
	cases := []struct {
		cmd    string
		failed bool
		fires  bool
	}{
		{"bash scripts/total.sh numbers.txt", false, false},
		{"./scripts/total.sh numbers.txt", false, false},
		{"cd x && sh -e scripts/total.sh", false, false},
		{"bash scripts/other.sh", false, true},
		{"bash scripts/total.sh numbers.txt", true, true},
		{"cat scripts/total.sh", false, true},
		{"echo scripts/total.sh", false, true},
	}
	for _, c := range cases {
		x := newSession(t, quiet())
		x.round(editCall("/w/scripts/total.sh", "a", "b"))
		run := ToolCall{Name: "run_command", Command: c.cmd, IsError: c.failed}
		if c.failed {
			run.ExitCode = 1
		}
		x.round(run)
		if got := hasKind(x.end(), KindVerify); got != c.fires {
			t.Errorf("%q (failed %v): verify fired %v, want %v", c.cmd, c.failed, got, c.fires)
		}
	}
}

// The shipped list covers the common runners, spelled as people run them.
func TestIsVerifyingRunners(t *testing.T) {
	pats := DefaultValues().List("verify_patterns")
	yes := []string{
		"python -m unittest", "python3 -m unittest discover -s tests", "pytest -x tests/", "uv run pytest", "poetry run pytest -q",
		"tox -e py311", "nox -s tests", "npm test", "pnpm test", "yarn test", "npm --silent test", "npx jest --ci", "jest",
		"npx vitest run", "./node_modules/.bin/vitest run", "cargo test", "cargo +nightly test", "cargo check", "cargo clippy -- -D warnings",
		"go test ./...", "go vet ./...", "go build ./...", "make test", "make -j4 check", "make -C sub test",
		"mvn test", "mvn -q verify", "./mvnw verify", "gradle test", "./gradlew check", "dotnet test", "ctest --output-on-failure",
		"rspec", "bundle exec rspec spec/a_spec.rb", "phpunit", "vendor/bin/phpunit", "mix test", "swift test",
		"cd pkg && GOFLAGS=-count=1 go test ./...", "timeout 60 pytest",
		"yarn jest", "yarn vitest", "pnpm vitest run", "./gradlew :app:test", "gradle :core:check", "hatch test",
	}
	no := []string{"ls", "cat a.go", "go run main.go", "go run -race test.go", "make", "make install", "python app.py",
		"python -m http.server", "npm install", "npm run dev", "cargo run", "echo pytest", "git commit -m 'make test'", "mvn -q package",
		"make -C test build", "./gradlew :app:build", "yarn dev", "pnpm install"}
	for _, c := range yes {
		if !IsVerifying(c, pats) {
			t.Errorf("%q does not verify", c)
		}
	}
	for _, c := range no {
		if IsVerifying(c, pats) {
			t.Errorf("%q verifies", c)
		}
	}
}
