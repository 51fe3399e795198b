package mcp

import (
	"slices"
	"strings"
)

// SecretValues are the credentials in the servers' configuration, as
// the servers get them (${VAR} expanded through getenv): env values whose
// names secretName marks, and the values of headers that carry
// credentials (with the token alone after a "Bearer " or "Basic "
// scheme). keel redacts them from the datalog like its API keys.
func SecretValues(servers []ServerConfig, getenv func(string) string, secretName func(string) bool) []string {
	var out []string
	for _, s := range servers {
		for k, v := range expand(s.Env, getenv) {
			if secretName(k) {
				out = append(out, v)
			}
		}
		for k, v := range expand(s.Headers, getenv) {
			if credentialHeader(k, secretName) {
				out = append(out, v)
				if _, token, ok := strings.Cut(v, " "); ok {
					out = append(out, strings.TrimSpace(token))
				}
			}
		}
	}
	slices.Sort(out) // stable names for the redaction marks
	return slices.Compact(out)
}

// credentialHeader reports a header that carries a credential:
// Authorization and its kin, or a name that reads like a secret
// ("X-Api-Key", "Private-Token").
func credentialHeader(name string, secretName func(string) bool) bool {
	n := strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	switch n {
	case "AUTHORIZATION", "PROXY_AUTHORIZATION", "COOKIE":
		return true
	}
	return secretName(n) || strings.Contains(n, "TOKEN") || strings.Contains(n, "API_KEY") || strings.Contains(n, "AUTH")
}
