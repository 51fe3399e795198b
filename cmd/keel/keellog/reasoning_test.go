package keellog

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCompactPath(t *testing.T) {
	cases := []struct{ in, want string }{
		{"idle recognizing_intent synthesizing done", "idle → recognizing_intent → synthesizing → done"},
		{"recognizing_intent executing observing executing observing executing observing executing synthesizing done",
			"recognizing_intent → (executing → observing)×3 → executing → synthesizing → done"},
		{"a a a b", "a×3 → b"},
		{"executing planning observing executing planning observing", "(executing → planning → observing)×2"},
		{"", ""},
	}
	for _, c := range cases {
		if got := compactPath(strings.Fields(c.in)); got != c.want {
			t.Errorf("compactPath(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestPlanDiff(t *testing.T) {
	parse := func(s string) *planView {
		var v planView
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return &v
	}
	first := parse(`{"goal":"g","strategy":"s","status":"active","steps":[{"id":"a","title":"read","status":"active"},{"id":"b","title":"edit","status":"pending","depends_on":["a"],"side_effects":true,"fallback":"c"},{"id":"c","title":"rewrite","status":"pending","can_fail":true}]}`)
	second := parse(`{"goal":"g","strategy":"t","status":"superseded","steps":[{"id":"a","title":"read","status":"completed"},{"id":"b","title":"edit","status":"failed"},{"id":"d","title":"ask","status":"pending"}]}`)
	got := strings.Join(planDiff(nil, first), "; ")
	if want := `goal "g"; strategy "s"; + a "read" [active]; + b "edit" [pending] (after a; fallback c; side effects); + c "rewrite" [pending] (may fail)`; got != want {
		t.Errorf("first plan\n got %s\nwant %s", got, want)
	}
	got = strings.Join(planDiff(first, second), "; ")
	if want := `strategy "s" → "t"; a "read": active → completed; b "edit": pending → failed; + d "ask" [pending]; - c "rewrite"; plan active → superseded`; got != want {
		t.Errorf("second plan\n got %s\nwant %s", got, want)
	}
	if got := planDiff(second, second); len(got) != 1 || got[0] != "no change" {
		t.Errorf("same plan: %v", got)
	}
}
