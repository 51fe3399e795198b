package demo

import "github.com/keel-dev/keel/agent"

// What the scripted model says. Written as a careful model would: short,
// concrete, saying what it does next.
const (
	startReasoning = "A small Go module: a greet package with a test, and a main. The README says a test fails. " +
		"Four steps: read the code and the test, run the tests to see the failure, make the smallest fix, run them again."
	startIntro = "This is keel's **scripted demo**: whatever you typed, I'll show you how keel works by fixing the " +
		"failing test in this small example project. First a plan, and a look at the files."
	listIntro   = "A look at the project's files first."
	readIntro   = "A `greet` package with its test. Reading both:"
	rereadIntro = "The edit did not apply; reading the file again to see its current text."
	testIntro   = "`List` looks wrong: it joins `names[:len(names)-2]`, which leaves out the name just before " +
		"\"and\". Running the tests to confirm before changing anything."
	editIntro = "Confirmed: `TestHello` fails for two and three names. The fix is one line — join every name " +
		"but the last. keel asks you before changing a file: press `a` to allow the edit (or `d` to deny it)."
	noGoEditIntro = "The `go` command is not installed here, so I can't run the tests, but the code shows the bug. " +
		"Fixing it: keel asks you before changing a file."
	testDeniedEditIntro = "You declined the test run, so I'll go by the code, which shows the bug. The fix is one " +
		"line — join every name but the last. keel asks you before changing a file."
	retryIntro  = "Trying the edit again; keel will ask you first, as before."
	verifyIntro = "Edited. Running the tests again to check the fix."
	closeIntro  = "All tests pass. Marking the plan done."

	deniedCloseIntro       = "You declined the edit, so I'll leave `greet/greet.go` as it is and close the plan."
	passedCloseIntro       = "The tests already pass, so there is nothing to fix. Closing the plan."
	failedEditCloseIntro   = "The edit would not apply to the file as it is now, so I'll stop here and close the plan."
	stillFailsCloseIntro   = "The tests still fail after the edit. Closing the plan and saying what I found."
	verifyDeniedCloseIntro = "You declined the test run, so the fix stays unverified. Closing the plan."
	noGoCloseIntro         = "The fix is in; without the `go` command I can't verify it here. Closing the plan."

	feedbackLead = "Thanks for the feedback. This demo follows a script, so it cannot rewrite its plan; " +
		"it keeps the same steps. "

	demoOverText = "The scripted demo plays one story, and it has finished. To use keel on your own code, " +
		"configure a model — set `OPENAI_API_KEY`, run a local Ollama, or run `keel config init` — and start " +
		"`keel` in your project. Quit the demo with `ctrl+c` twice."
)

// finalAnswer summarises the story, by how it went, and in the TUI ends
// with a tour of what the screen showed.
func (p progress) finalAnswer() string {
	ans := p.outcomeText()
	if p.headless {
		return ans
	}
	return ans + "\n\n" + tourText
}

// outcomeText says how the story went.
func (p progress) outcomeText() string {
	switch {
	case p.denied:
		return "You declined the edit, so `greet/greet.go` is unchanged and `go test ./...` still fails.\n\n" +
			"The fix is one line in `List`: join `names[:len(names)-1]` instead of `names[:len(names)-2]`. " +
			"Send any message and I'll ask to make the edit again — or make it yourself."
	case p.testsOK:
		return "The tests already pass, so there was nothing to fix."
	case !p.edited:
		return "I could not apply the fix: the file no longer matched what I read. The fix is one line in `List`: " +
			"join `names[:len(names)-1]` instead of `names[:len(names)-2]`."
	case p.noGo:
		return fixedText + " The `go` command is not installed here, so the fix is not verified: run `go test ./...` " +
			"where Go is installed."
	case p.verifyDenied:
		return fixedText + " You declined the test run, so the fix is not verified: run `go test ./...` to check it."
	case !p.verifyOK:
		return fixedText + " But `go test ./...` still fails; its output above shows where."
	}
	return fixedText + " `go test ./...` now passes."
}

const fixedText = "Fixed. `greet.List` dropped a name: it joined `names[:len(names)-2]` before \"and\", so " +
	"`Hello(\"Ann\", \"Bob\", \"Cy\")` said \"Hello, Ann and Cy!\". It now joins `names[:len(names)-1]`."

const tourText = "What you just saw:\n" +
	"- the **plan**, kept up to date as the work went on;\n" +
	"- every tool call as one line (expand it to see the output), and the edit as a diff;\n" +
	"- the **permission** question before any file changed;\n" +
	"- the **checkpoint** cards: every few tool calls keel asks the model to restate the task and name its next output;\n" +
	"- the status bar: state, tokens, tool calls and the next checkpoint.\n\n" +
	"Everything was logged: `ctrl+l` browses the datalog, and `/undo` reverts a task's edits."

// afterword answers a message keel injects after the final answer.
func (p progress) afterword() string {
	if p.edited && !p.verifyOK {
		return "No check passed here: " + p.outcomes()[3].Note +
			". Run `go test ./...` where Go is installed to verify the fix."
	}
	return "Nothing is left to do: the plan is closed and the answer is above."
}

// withCheckpointAnswer puts the answer to a cadence checkpoint first: the
// three things it asks, then the step itself, acted on in the same turn.
func withCheckpointAnswer(p progress, r reply) reply {
	ans := "1. The task: make the example project's failing test pass (this is keel's scripted demo).\n" +
		"2. " + p.proved() + "\n" +
		"3. Next output: " + nextOutput(r) + "."
	if len(r.calls) > 0 {
		r.text = ans
	} else {
		r.text = ans + "\n\n" + r.text
	}
	return r
}

// withReflect answers a checkpoint with a reflect call before the step's
// own calls; a final answer waits for the next turn, after the reflection.
func withReflect(p progress, r reply) reply {
	rc := reflectCall(p, r)
	if len(r.calls) == 0 {
		return reply{calls: []call{rc}}
	}
	r.calls = append([]call{rc}, r.calls...)
	return r
}

// reflectCall is the checkpoint's answer as a reflect call: the story is
// on course, so the adjustment is continue.
func reflectCall(p progress, r reply) call {
	return call{name: agent.ReflectToolName, args: map[string]any{
		"progress":    p.proved(),
		"evidence":    []string{"the tool calls so far in this demo"},
		"next_action": nextOutput(r),
		"confidence":  0.9,
		"adjustment":  agent.AdjustContinue,
	}}
}

// proved says what the calls so far established.
func (p progress) proved() string {
	switch {
	case p.denied:
		return "You declined the edit, so the code is unchanged."
	case p.verifyOK:
		return "The fix works: `go test ./...` passes."
	case p.edited:
		return "The edit changed `List` to join every name but the last; nothing has checked it yet."
	case p.tested:
		return "The test run confirmed the bug: `TestHello` fails for two and three names."
	case p.readCode:
		return "The reads found the bug: `List` joins `names[:len(names)-2]`, which drops a name."
	}
	return "They showed the project's layout: a `greet` package, its test and a `main.go`."
}

// nextOutput names the reply's concrete output and its distance.
func nextOutput(r reply) string {
	for _, c := range r.calls {
		switch c.name {
		case "run_command":
			return "the result of `go test ./...`, one call away, in this turn"
		case "edit_file":
			return "the one-line edit to `List`, one call away, in this turn"
		case "read_file":
			return "the file's current text, then the edit, two calls away"
		case "list_dir":
			return "the project's file list, one call away"
		}
	}
	if len(r.calls) > 0 {
		return "the closed plan and then the answer, in the next turn"
	}
	return "the answer, in this turn"
}
