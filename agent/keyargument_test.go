package agent

import "testing"

func TestKeyArgument(t *testing.T) {
	cases := map[string]string{
		`{"command":"go test ./...","path":"x"}`:   "go test ./...",
		`{"path":"main.go"}`:                       "main.go",
		`{"pattern":"**/*.go"}`:                    "**/*.go",
		`{"url":"https://go.dev/doc","full":true}`: "https://go.dev/doc",
		`{"goal":"ship it"}`:                       "ship it",
		`not json`:                                 "",
	}
	for args, want := range cases {
		if got := KeyArgument(args); got != want {
			t.Errorf("KeyArgument(%s) = %q, want %q", args, got, want)
		}
	}
}
