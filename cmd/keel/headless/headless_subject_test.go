package headless

import "testing"

func TestCallSubjectIsCompactJSON(t *testing.T) {
	tests := map[string]string{
		`{"command":"go test ./..."}`: "go test ./...",
		"{\n  \"entities\": [ {\"entityType\": \"tool\", \"name\": \"keel\"} ]\n}": `{"entities":[{"entityType":"tool","name":"keel"}]}`,
		`not json`: "not json",
	}
	for in, want := range tests {
		if got := callSubject(in); got != want {
			t.Errorf("callSubject(%q) = %q, want %q", in, got, want)
		}
	}
}
