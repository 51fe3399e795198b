package config

import (
	"errors"
	"math"
	"net/netip"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// validate checks the ranges and cross-references that types cannot
// express, reporting every problem at the source of the offending value.
func validate(c *Config) error {
	var errs []error
	add := func(e *Error) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	for _, f := range allFields() {
		add(checkField(c, f))
	}
	add(checkWritable(c))
	add(checkFetch(c))
	if _, ok := c.Providers[c.DefaultProvider]; !ok {
		add(errorAt(c.Source("default_provider"), "default_provider",
			"default_provider %q is not a configured provider; use one of %s or add a [providers.%s] table",
			c.DefaultProvider, c.providerList(), c.DefaultProvider))
	}
	for _, name := range c.ProviderNames() {
		for _, e := range checkProvider(c, c.Providers[name]) {
			add(e)
		}
	}
	return errors.Join(errs...)
}

// checkField applies the range rule of one non-provider key.
func checkField(c *Config, f field) *Error {
	src := c.Source(f.key)
	switch v := f.ptr(c).(type) {
	case *int:
		if *v < 0 {
			return errorAt(src, f.key, "%s must be 0 or more, not %d (%s)", f.key, *v, f.doc)
		}
	case *time.Duration:
		if f.key == "max_duration" && *v == 0 {
			return nil // no limit
		}
		if *v <= 0 {
			return errorAt(src, f.key, "%s must be a positive duration such as \"120s\", not %s", f.key, *v)
		}
	case *float64:
		if f.key == "compact_at" && !(*v > 0 && *v <= 1) {
			return errorAt(src, f.key, "compact_at must be greater than 0 and at most 1, not %v", *v)
		}
	case *string:
		if f.key == "ui.theme" && !slices.Contains([]string{"auto", "dark", "light"}, *v) {
			return errorAt(src, f.key, `ui.theme must be "auto", "dark" or "light", not %q`, *v)
		}
		if f.key == "telemetry.endpoint" && *v != "" && !httpURL(*v) {
			return errorAt(src, f.key, `telemetry.endpoint must be an http or https URL such as "http://localhost:4318", not %q`, short(*v))
		}
		if f.key == "sandbox.mode" && !slices.Contains([]string{SandboxAuto, SandboxOn, SandboxOff}, *v) {
			return errorAt(src, f.key, `sandbox.mode must be "auto", "on" or "off", not %q`, *v)
		}
	}
	return nil
}

// checkWritable requires every sandbox.writable and sandbox.readable
// entry to be an absolute path once "~/" is expanded.
func checkWritable(c *Config) *Error {
	for key, list := range map[string][]string{"sandbox.writable": c.Sandbox.Writable, "sandbox.readable": c.Sandbox.Readable} {
		for _, d := range list {
			if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~/") { // "~/" stays only without a home: dropped then
				return errorAt(c.Source(key), key, `%s must list absolute paths (or ones starting with "~/"), not %q`, key, short(d))
			}
		}
	}
	return nil
}

// checkProvider validates one [providers.NAME] table.
func checkProvider(c *Config, p Provider) []*Error {
	var errs []*Error
	at := func(k string) Source { return c.Source(providerKey(p.Name, k)) }
	errs = append(errs, checkBaseURL(c, p)...)
	if p.ContextWindow <= 0 {
		errs = append(errs, errorAt(at("context_window"), providerKey(p.Name, "context_window"),
			"%s must be a positive number of tokens, not %d", providerKey(p.Name, "context_window"), p.ContextWindow))
	}
	nonNeg := map[string]float64{
		"max_output_tokens":     float64(p.MaxOutputTokens),
		"input_price_per_mtok":  p.InputPricePerMTok,
		"output_price_per_mtok": p.OutputPricePerMTok,
	}
	for _, k := range []string{"max_output_tokens", "input_price_per_mtok", "output_price_per_mtok"} {
		if v := nonNeg[k]; !(v >= 0) || math.IsInf(v, 1) { // also rejects nan and inf
			errs = append(errs, errorAt(at(k), providerKey(p.Name, k), "%s must be a number 0 or more, not %v", providerKey(p.Name, k), v))
		}
	}
	for _, fb := range p.Fallback {
		if _, ok := c.Providers[fb]; !ok || fb == p.Name {
			errs = append(errs, errorAt(at("fallback"), providerKey(p.Name, "fallback"),
				"%s names %q, which is not another configured provider; use one of %s",
				providerKey(p.Name, "fallback"), fb, c.providerList()))
		}
	}
	return errs
}

// checkBaseURL requires an http(s) base_url. A provider whose base_url an
// untrusted project set has none and is not an error here: it cannot be
// used, and Provider says why when it is.
func checkBaseURL(c *Config, p Provider) []*Error {
	key := providerKey(p.Name, "base_url")
	switch {
	case p.BaseURL == "" && c.baseURLIgnored(p.Name):
		return nil
	case p.BaseURL == "":
		return []*Error{errorAt(c.Source("providers."+p.Name), key,
			"provider %q has no base_url; set it to the server's OpenAI-compatible endpoint, e.g. \"http://localhost:8000/v1\"", p.Name)}
	}
	if !httpURL(p.BaseURL) {
		return []*Error{errorAt(c.Source(key), key, "%s must be an http or https URL, not %q", key, short(p.BaseURL))}
	}
	return nil
}

// httpURL reports an http or https URL with a host.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// providerList formats the provider names for messages.
func (c *Config) providerList() string {
	names := c.ProviderNames()
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = `"` + n + `"`
	}
	return strings.Join(quoted, ", ")
}

// checkFetch requires fetch.allow_networks entries to be addresses or CIDR
// prefixes and fetch.allow_domains entries to be host names (or *.domain).
func checkFetch(c *Config) *Error {
	for _, n := range c.Fetch.AllowNetworks {
		n = strings.TrimSpace(n)
		if _, err := netip.ParsePrefix(n); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(n); err != nil {
			return errorAt(c.Source("fetch.allow_networks"), "fetch.allow_networks",
				`fetch.allow_networks must list addresses or CIDR prefixes such as "10.1.0.0/16", not %q`, short(n))
		}
	}
	for _, d := range c.Fetch.AllowDomains {
		h := strings.TrimPrefix(strings.TrimSpace(d), "*.")
		if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
			continue
		}
		if h == "" || strings.ContainsAny(h, "*/:@[] \t") {
			return errorAt(c.Source("fetch.allow_domains"), "fetch.allow_domains",
				`fetch.allow_domains must list host names such as "docs.python.org" or "*.python.org", not %q`, short(d))
		}
	}
	return nil
}
