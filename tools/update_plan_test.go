package tools

import (
	"context"
	"errors"
	"testing"
)

type fakeSink struct {
	got []PlanUpdate
	err error
}

var _ PlanSink = (*fakeSink)(nil)

func (f *fakeSink) UpdatePlan(_ context.Context, p PlanUpdate) (string, error) {
	f.got = append(f.got, p)
	return "plan saved", f.err
}

func TestUpdatePlan(t *testing.T) {
	ws := newTestWS(t, nil)
	step := func(title, status string) m { return m{"title": title, "status": status} }
	tests := []struct {
		name  string
		args  m
		isErr bool
		want  string
	}{
		{"valid", m{"goal": "g", "strategy": "s", "steps": []m{step("a", "completed"), step("b", "active"), step("c", "pending")}}, false, "plan saved"},
		{"all statuses", m{"goal": "g", "steps": []m{step("a", "failed"), step("b", "skipped")}}, false, "plan saved"},
		{"two active", m{"goal": "g", "steps": []m{step("a", "active"), step("b", "active")}}, true, `steps 1 ("a") and 2 ("b") are all active; keep exactly one step active`},
		{"bad status", m{"goal": "g", "steps": []m{step("a", "done")}}, true, `status "done"; use pending, active`},
		{"no goal", m{"goal": " ", "steps": []m{step("a", "pending")}}, true, "goal is required"},
		{"no steps", m{"goal": "g", "steps": []m{}}, true, "steps is empty"},
		{"untitled step", m{"goal": "g", "steps": []m{step("", "pending")}}, true, "step 1 has no title"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sink := &fakeSink{}
			res := call(t, ws, Options{Plans: sink}, NameUpdatePlan, tc.args)
			wantOutput(t, res, tc.isErr, tc.want)
			if tc.isErr != (len(sink.got) == 0) {
				t.Errorf("sink called %d times", len(sink.got))
			}
		})
	}
}

func TestUpdatePlanSinkDetails(t *testing.T) {
	ws := newTestWS(t, nil)
	sink := &fakeSink{}
	call(t, ws, Options{Plans: sink}, NameUpdatePlan, m{"goal": "ship", "strategy": "small steps",
		"steps": []m{{"title": "a", "status": "active", "note": "n"}}})
	want := PlanUpdate{Goal: "ship", Strategy: "small steps", Steps: []PlanStep{{Title: "a", Status: StepActive, Note: "n"}}}
	if len(sink.got) != 1 || sink.got[0].Goal != want.Goal || sink.got[0].Steps[0] != want.Steps[0] {
		t.Errorf("sink got %+v", sink.got)
	}
	// no sink: validated and echoed
	res := call(t, ws, Options{}, NameUpdatePlan, m{"goal": "ship", "steps": []m{{"title": "a", "status": "active"}}})
	wantOutput(t, res, false, "goal: ship", "[>] a")
	// a failing sink is a harness error
	tool, _ := Lookup(New(ws, Options{Plans: &fakeSink{err: errors.New("db down")}}), NameUpdatePlan)
	if _, err := tool.Run(context.Background(), []byte(`{"goal":"g","steps":[{"title":"a","status":"pending"}]}`)); err == nil {
		t.Error("sink error not returned")
	}
}
