package mcp

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretValues(t *testing.T) {
	secretName := func(n string) bool { return strings.HasSuffix(strings.ToUpper(n), "_TOKEN") }
	getenv := func(n string) string { return map[string]string{"GH": "ghp_fromenv"}[n] }
	servers := []ServerConfig{
		{Name: "a", Env: map[string]string{"GITHUB_TOKEN": "${GH}", "LOG_LEVEL": "debug-verbose"}},
		{Name: "b", Headers: map[string]string{
			"Authorization": "Bearer tok-123", "X-Api-Key": "k-456", "Private-Token": "p-789",
			"Accept": "application/json", "User-Agent": "keel-tests", "Content-Type": "text/plain",
		}},
	}
	got := SecretValues(servers, getenv, secretName)
	want := []string{"Bearer tok-123", "ghp_fromenv", "k-456", "p-789", "tok-123"}
	if !slices.Equal(got, want) {
		t.Errorf("SecretValues = %q, want %q", got, want)
	}
}
