package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// hostTool is a Scoper whose scope is its args' "host" field: "bad"
// cannot be read, patterns are the host itself or "*.suffix".
type hostTool struct{ stubTool }

var _ Scoper = hostTool{}

func (hostTool) Scope(args json.RawMessage) (string, error) {
	var a struct{ Host string }
	_ = json.Unmarshal(args, &a)
	if a.Host == "bad" || a.Host == "" {
		return "", errors.New("cannot reach that")
	}
	return a.Host, nil
}
func (hostTool) MatchScope(p, s string) bool {
	if rest, ok := strings.CutPrefix(p, "*."); ok {
		return strings.HasSuffix(s, "."+rest)
	}
	return p == s
}
func (hostTool) CheckScopePattern(p string) error {
	if strings.Contains(p, "/") {
		return errors.New("not a host")
	}
	return nil
}

func TestScopedDecide(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "x"})
	ts := append(New(ws, Options{}), hostTool{stubTool{"web", ReadOnly}})
	args := func(h string) json.RawMessage { return json.RawMessage(`{"host":"` + h + `"}`) }
	tests := []struct {
		name        string
		allow, deny []string
		yolo        bool
		host        string
		want        Verdict
		reason      string
	}{
		{"asks for a new host", nil, nil, false, "docs.go.dev", Ask, "web reaches docs.go.dev, not allowed yet"},
		{"an unreadable call is refused, not asked", nil, nil, true, "bad", Deny, "cannot reach that"},
		{"a rule for the host", []string{"web:docs.go.dev"}, nil, false, "docs.go.dev", Allow, ""},
		{"a rule for another host", []string{"web:go.dev"}, nil, false, "docs.go.dev", Ask, ""},
		{"a wildcard rule", []string{"web:*.go.dev"}, nil, false, "docs.go.dev", Allow, ""},
		{"a rule for every host", []string{"web"}, nil, false, "x.org", Allow, ""},
		{"yolo", nil, nil, true, "x.org", Allow, ""},
		{"deny wins over allow", []string{"web"}, []string{"web:*.evil.test"}, false, "a.evil.test", Deny, `denied by the rule "web:*.evil.test"`},
		{"deny wins over yolo", nil, []string{"web"}, true, "x.org", Deny, ""},
		{"a deny rule for another host", nil, []string{"web:evil.test"}, false, "x.org", Ask, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPolicy(t, ws, PolicyOptions{Tools: ts, Allow: tc.allow, Deny: tc.deny, Yolo: tc.yolo})
			d := p.Decide("web", args(tc.host))
			if d.Verdict != tc.want || !strings.Contains(d.Reason, tc.reason) {
				t.Fatalf("Decide = %v %q; want %v with %q", d.Verdict, d.Reason, tc.want, tc.reason)
			}
			if d.Verdict == Ask && (d.Grant.Scope != tc.host || d.Grant.Always != "web:"+tc.host) {
				t.Fatalf("the question offers %+v; want the host %s for the session or always", d.Grant, tc.host)
			}
		})
	}
}

func TestScopedGrantCoversOneHost(t *testing.T) {
	ws := newTestWS(t, nil)
	ts := append(New(ws, Options{}), hostTool{stubTool{"web", ReadOnly}})
	var saved []string
	p := mustPolicy(t, ws, PolicyOptions{Tools: ts, Persist: func(r string) error { saved = append(saved, r); return nil }})
	d := p.Decide("web", json.RawMessage(`{"host":"a.test"}`))
	p.Grant(d.Grant)
	if got := p.Decide("web", json.RawMessage(`{"host":"a.test"}`)).Verdict; got != Allow {
		t.Fatalf("the granted host: %v", got)
	}
	if got := p.Decide("web", json.RawMessage(`{"host":"b.test"}`)).Verdict; got != Ask {
		t.Fatalf("a session grant for a.test let b.test through: %v", got)
	}
	d = p.Decide("web", json.RawMessage(`{"host":"b.test"}`))
	if err := p.Persist(d.Grant); err != nil {
		t.Fatal(err)
	}
	if len(saved) != 1 || saved[0] != "web:b.test" || p.Decide("web", json.RawMessage(`{"host":"b.test"}`)).Verdict != Allow {
		t.Fatalf("always: saved %q; the host must be allowed for the session too", saved)
	}
	noSave := mustPolicy(t, ws, PolicyOptions{Tools: ts})
	if err := noSave.Persist(d.Grant); err == nil || !strings.Contains(err.Error(), "this session only") {
		t.Fatalf("no config to save in: %v", err)
	}
	if noSave.Decide("web", json.RawMessage(`{"host":"b.test"}`)).Verdict != Allow {
		t.Fatal("an always that cannot be saved still holds for the session")
	}
}

func TestScopedRuleErrors(t *testing.T) {
	ws := newTestWS(t, nil)
	ts := append(New(ws, Options{}), hostTool{stubTool{"web", ReadOnly}})
	for _, r := range []string{"web:a/b", "web:"} {
		if _, err := NewPolicy(ws, PolicyOptions{Tools: ts, Allow: []string{r}}); err == nil {
			t.Errorf("rule %q was accepted", r)
		}
	}
}
