package discipline

import (
	"fmt"
	"slices"
	"testing"
)

// session drives AfterRound round by round, as the agent would.
type session struct {
	t     testing.TB
	p     Policy
	s     State
	plan  PlanView
	fired []Intervention // everything that fired, in order
}

func newSession(t testing.TB, p Policy) *session { return &session{t: t, p: p} }

// testVerifyPatterns are the checks these tests count as verifying.
var testVerifyPatterns = []string{"go test", "go build", "go vet", "make test", "make check", "cargo test",
	"npm test", "pytest", "python -m pytest", "yarn test", "mvn test", "golangci-lint"}

// DefaultPolicy is the policy these tests start from: the older guards
// at keel's usual thresholds; the newer ones (plan_continue_max,
// monologue, alternation) are off unless a test turns them on. The
// shipped policy is built from config (config.DisciplinePolicy).
func DefaultPolicy() Policy {
	p := Policy{ReflectionCadence: 10, StallThreshold: 5, Values: DefaultValues()}
	for _, k := range []string{"plan_continue_max", "monologue_warn", "monologue_halt", "alternation_halt"} {
		p.Set(k, 0)
	}
	p.Set("verify_patterns", testVerifyPatterns)
	p.Set("verify_skip_suffixes", []string{".md", ".markdown", ".txt", ".rst", ".adoc"})
	return p
}

// DefaultVerifyPatterns are the test's verifying commands.
func DefaultVerifyPatterns() []string { return testVerifyPatterns }

// quiet is DefaultPolicy with the checkpoint off, so a guard's test sees
// only that guard unless it asks for more.
func quiet() Policy {
	p := DefaultPolicy()
	p.ReflectionCadence = 0
	return p
}

// round runs one round with the given calls and returns what fired.
func (x *session) round(calls ...ToolCall) []Intervention {
	return x.summary(RoundSummary{Calls: calls})
}

// end runs a round where the model ended its turn.
func (x *session) end() []Intervention { return x.summary(RoundSummary{EndedTurn: true}) }

// compacted runs a round that followed a compaction.
func (x *session) compacted(calls ...ToolCall) []Intervention {
	return x.summary(RoundSummary{Calls: calls, Compacted: true})
}

func (x *session) summary(sum RoundSummary) []Intervention {
	x.t.Helper()
	sum.ToolCalls = x.s.ToolCalls() + len(sum.Calls)
	if sum.Plan.Steps == nil {
		sum.Plan = x.plan
	}
	ins, next := AfterRound(sum, x.p, x.s)
	if next.ToolCalls() < x.s.ToolCalls() {
		x.t.Fatalf("tool count went back: %d -> %d", x.s.ToolCalls(), next.ToolCalls())
	}
	x.s = next
	x.fired = append(x.fired, ins...)
	return ins
}

// of returns the interventions of one kind.
func of(ins []Intervention, k Kind) []Intervention {
	var out []Intervention
	for _, in := range ins {
		if in.Kind == k {
			out = append(out, in)
		}
	}
	return out
}

// calls returns the AtToolCall of each intervention.
func calls(ins []Intervention) []int {
	out := []int{}
	for _, in := range ins {
		out = append(out, in.AtToolCall)
	}
	return out
}

func readCall(path, version string, from, to, total int) ToolCall {
	args := NormalizeArgs(fmt.Sprintf(`{"path": %q, "offset": %d, "limit": %d}`, path, from, to-from+1))
	return ToolCall{
		Name: "read_file", Args: args,
		ResultHash: Hash(fmt.Sprint(path, version, from, to)),
		Reads:      []Read{{Path: path, Version: version, From: from, To: to, Total: total}},
	}
}

// catCall is a run_command read as the agent fills it from CommandRead.
func catCall(command, path, version string, total int) ToolCall {
	_, from, to, ok := CommandRead(command)
	if !ok {
		panic("not a read: " + command)
	}
	c := cmdCall(command, 0, "content of "+path+version)
	c.Reads = []Read{{Path: path, Version: version, From: from, To: to, Total: total}}
	return c
}

func editCall(path, old, new string) ToolCall {
	return ToolCall{
		Name: "edit_file", Args: NormalizeArgs(fmt.Sprintf(`{"path":%q,"old":%q,"new":%q}`, path, old, new)),
		ResultHash: Hash("edited " + path), Changed: []string{path},
	}
}

func failedEdit(path, msg string) ToolCall {
	return ToolCall{
		Name: "edit_file", Args: NormalizeArgs(fmt.Sprintf(`{"path":%q,"old":"x","new":"y"}`, path)),
		ResultHash: Hash(msg), IsError: true, ErrorLine: NormalizeError(msg),
	}
}

func cmdCall(command string, exit int, output string) ToolCall {
	c := ToolCall{
		Name: "run_command", Args: NormalizeArgs(fmt.Sprintf(`{"command":%q}`, command)),
		ResultHash: HashOutput(output), Command: command, ExitCode: exit,
	}
	if exit != 0 {
		c.IsError, c.ErrorLine = true, output // the agent passes the whole output
	}
	return c
}

func kindsOf(ins []Intervention) []Kind {
	out := []Kind{}
	for _, in := range ins {
		out = append(out, in.Kind)
	}
	return out
}

func hasKind(ins []Intervention, k Kind) bool {
	return slices.ContainsFunc(ins, func(in Intervention) bool { return in.Kind == k })
}

// isolate turns off every guard's numbers and switches but the named
// guard's, so a test sees that guard alone.
func isolate(p *Policy, keep string) {
	for _, g := range registered().guards {
		if g.Name == keep {
			continue
		}
		for _, s := range g.Settings {
			switch s.Kind {
			case SettingInt:
				p.Set(s.Key, 0)
			case SettingBool:
				p.Set(s.Key, false)
			}
		}
	}
}
