package config

import (
	"fmt"
	"slices"
)

// ProviderNames lists the configured providers, sorted.
func (c *Config) ProviderNames() []string {
	names := make([]string, 0, len(c.Providers))
	for n := range c.Providers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Provider returns the named provider as configured (its own model, not the
// top-level one). The Fallback slice is a copy.
func (c *Config) Provider(name string) (Provider, error) {
	p, ok := c.Providers[name]
	if !ok {
		return Provider{}, &Error{Key: "default_provider",
			Msg: fmt.Sprintf("provider %q is not configured; use one of %s", name, c.providerList())}
	}
	if p.BaseURL == "" && c.baseURLIgnored(name) {
		src, _ := c.IgnoredSource(providerKey(name, "base_url"))
		return Provider{}, &Error{Key: providerKey(name, "base_url"),
			Msg: fmt.Sprintf("provider %q has no base_url: the one %s sets is ignored because %s; %s, or define the provider in your own configuration",
				name, src, c.untrusted.reason(), c.untrusted.remedy())}
	}
	p.Name = name
	p.Fallback = slices.Clone(p.Fallback)
	return p, nil
}

// baseURLIgnored reports whether an untrusted project set the provider's
// base_url, which Load ignored.
func (c *Config) baseURLIgnored(name string) bool {
	_, ok := c.ignored[providerKey(name, "base_url")]
	return ok
}

// ActiveProvider returns default_provider (already overridden by
// KEEL_PROVIDER or --provider) with its effective model: the top-level
// model (file, KEEL_MODEL or --model) when set, else the provider's own.
func (c *Config) ActiveProvider() (Provider, error) {
	p, err := c.Provider(c.DefaultProvider)
	if err != nil {
		return Provider{}, err
	}
	if c.Model != "" {
		p.Model = c.Model
	}
	return p, nil
}

// APIKey resolves a provider's key: api_key when set, else the environment
// variable named by api_key_env. A provider with neither needs no key
// (local servers) and gets "". A named variable that is empty is an error
// wrapping ErrNoAPIKey that says which variable to set.
func (c *Config) APIKey(p Provider, getenv func(string) string) (string, error) {
	if p.APIKey != "" {
		return p.APIKey, nil
	}
	if p.APIKeyEnv == "" {
		return "", nil
	}
	if k := getenv(p.APIKeyEnv); k != "" {
		return k, nil
	}
	return "", fmt.Errorf("provider %q needs an API key: set the %s environment variable or api_key in [providers.%s]: %w",
		p.Name, p.APIKeyEnv, p.Name, ErrNoAPIKey)
}
