package agent

import (
	"encoding/json"
	"strings"
	"testing"
)

// update decodes an update_plan call's arguments as the tool does.
func update(t *testing.T, args string) PlanUpdate {
	t.Helper()
	var u PlanUpdate
	if err := decodeStrict(args, &u); err != nil {
		t.Fatalf("decode %s: %v", args, err)
	}
	return u
}

func decodeStrict(args string, v any) error {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func TestValidatePlan(t *testing.T) {
	cases := []struct {
		name, args string
		want       string // "" valid, else a part of the message
	}{
		{"minimal", `{"goal":"g","steps":[{"title":"a","status":"active"}]}`, ""},
		{"full schema", `{"goal":"g","success_criteria":["tests pass"],"strategy":"s","steps":[
			{"id":"read","title":"read","status":"completed","risks":["big file"],"success_criteria":"found it"},
			{"id":"edit","title":"edit","status":"active","depends_on":["read"],"side_effects":true,"fallback":"rewrite"},
			{"id":"rewrite","title":"rewrite","status":"pending","side_effects":true},
			{"id":"lint","title":"lint","status":"pending","depends_on":["edit"],"can_fail":true}]}`, ""},
		{"numeric ids", `{"goal":"g","steps":[{"id":1,"title":"a","status":"completed"},{"id":2,"title":"b","status":"active","depends_on":[1]}]}`, ""},
		{"no goal", `{"goal":" ","steps":[{"title":"a","status":"active"}]}`, "goal is required"},
		{"no steps", `{"goal":"g","steps":[]}`, "steps is empty"},
		{"unknown status", `{"goal":"g","steps":[{"title":"a","status":"doing"}]}`, `status "doing"`},
		{"duplicate id", `{"goal":"g","steps":[{"id":"x","title":"a","status":"active"},{"id":"x","title":"b","status":"pending"}]}`, `both have id "x"`},
		{"unknown dependency", `{"goal":"g","steps":[{"id":"a","title":"a","status":"pending","depends_on":["zz"]}]}`, `depends on "zz", which is not a step of the plan (ids: a)`},
		{"self dependency", `{"goal":"g","steps":[{"id":"a","title":"a","status":"pending","depends_on":["a"]}]}`, "depends on itself"},
		{"fallback not a step", `{"goal":"g","steps":[{"id":"a","title":"a","status":"active","fallback":"b"}]}`, "a fallback must be a step of the plan"},
		{"fallback itself", `{"goal":"g","steps":[{"id":"a","title":"a","status":"active","fallback":"a"}]}`, "has fallback itself"},
		{"cycle", `{"goal":"g","steps":[{"id":"a","title":"a","status":"pending","depends_on":["c"]},{"id":"b","title":"b","status":"pending","depends_on":["a"]},{"id":"c","title":"c","status":"pending","depends_on":["b"]}]}`, "cycle (a → c → b → a)"},
		{"active before dependency", `{"goal":"g","steps":[{"id":"a","title":"read","status":"pending"},{"id":"b","title":"edit","status":"active","depends_on":["a"]}]}`, `step "edit" (id b) cannot be active before its dependencies are done: "read" (id a), pending`},
		{"completed before dependency", `{"goal":"g","steps":[{"id":"a","title":"read","status":"active"},{"id":"b","title":"edit","status":"completed","depends_on":["a"]}]}`, "cannot be completed before its dependencies"},
		{"failed can_fail dependency is done", `{"goal":"g","steps":[{"id":"a","title":"a","status":"failed","can_fail":true},{"id":"b","title":"b","status":"active","depends_on":["a"]}]}`, ""},
		{"failed dependency is not done", `{"goal":"g","steps":[{"id":"a","title":"a","status":"failed"},{"id":"b","title":"b","status":"active","depends_on":["a"]}]}`, "cannot be active"},
		{"failed dependency with its fallback done", `{"goal":"g","steps":[{"id":"a","title":"a","status":"failed","fallback":"f"},{"id":"f","title":"f","status":"completed"},{"id":"b","title":"b","status":"active","depends_on":["a"]}]}`, ""},
		{"skipped dependency is done", `{"goal":"g","steps":[{"id":"a","title":"a","status":"skipped"},{"id":"b","title":"b","status":"active","depends_on":["a"]}]}`, ""},
		{"two active", `{"goal":"g","steps":[{"title":"a","status":"active"},{"title":"b","status":"active"}]}`, "keep exactly one step active"},
		{"active parent and active sub-step", `{"goal":"g","steps":[{"id":"p","title":"p","status":"active"},{"id":"p.1","title":"c","status":"active","parent":"p"}]}`, ""},
		{"two active sub-steps", `{"goal":"g","steps":[{"id":"p","title":"p","status":"active"},{"id":"x","title":"x","status":"active","parent":"p"},{"id":"y","title":"y","status":"active","parent":"p"}]}`, "keep exactly one step active"},
		{"depth three", `{"goal":"g","steps":[{"id":"p","title":"p","status":"active"},{"id":"c","title":"c","status":"pending","parent":"p"},{"id":"gc","title":"gc","status":"pending","parent":"c"}]}`, "one level deep at most"},
		{"unknown parent", `{"goal":"g","steps":[{"id":"c","title":"c","status":"pending","parent":"p"}]}`, `has parent "p", which is not a step`},
		{"parent completed with open sub-step", `{"goal":"g","steps":[{"id":"p","title":"p","status":"completed"},{"id":"c","title":"c","status":"pending","parent":"p"}]}`, "while its sub-step"},
		{"no title", `{"goal":"g","steps":[{"title":"","status":"active"}]}`, "step 1 has no title"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ValidatePlan(update(t, c.args))
			switch {
			case c.want == "" && got != "":
				t.Errorf("valid plan rejected: %s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("message %q lacks %q", got, c.want)
			}
		})
	}
}

// Criteria and ids decode from the shapes models send.
func TestPlanFieldShapes(t *testing.T) {
	u := update(t, `{"goal":"g","success_criteria":"one","steps":[{"id":7,"title":"a","status":"active","depends_on":[" x "]}]}`)
	if len(u.SuccessCriteria) != 1 || u.SuccessCriteria[0] != "one" || u.Steps[0].ID != "7" || u.Steps[0].DependsOn[0] != "x" {
		t.Errorf("decoded %+v", u)
	}
	if err := decodeStrict(`{"goal":"g","steps":[{"id":true,"title":"a","status":"active"}]}`, &u); err == nil {
		t.Error("a boolean id was accepted")
	}
}

func FuzzValidatePlan(f *testing.F) {
	f.Add(`{"goal":"g","steps":[{"id":"a","title":"a","status":"pending","depends_on":["b"]},{"id":"b","title":"b","status":"active","depends_on":["a"],"fallback":"a","parent":"a"}]}`)
	f.Fuzz(func(t *testing.T, args string) {
		var u PlanUpdate
		if decodeStrict(args, &u) != nil {
			return
		}
		_ = ValidatePlan(u) // must not panic or hang on any plan
	})
}
