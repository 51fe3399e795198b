package main

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/fetch"
)

// addFetchTool appends the fetch tool to toolset when [fetch] enabled is
// on, with its limits and the special-use networks it may reach.
func addFetchTool(toolset *[]tools.Tool, cfg *config.Config) error {
	if !cfg.Fetch.Enabled {
		return nil
	}
	ns, err := fetch.ParseNetworks(cfg.Fetch.AllowNetworks)
	if err != nil {
		return err
	}
	*toolset = append(*toolset, fetch.New(fetch.Options{MaxBytes: int64(cfg.Fetch.MaxBytes), Timeout: cfg.Fetch.Timeout,
		MaxRedirects: cfg.Fetch.MaxRedirects, Networks: ns, UserAgent: "keel/" + version + " (fetch tool)"}))
	return nil
}

// fetchRules turns [fetch] allow_domains into the policy's allow rules
// ("fetch:docs.python.org").
func fetchRules(cfg *config.Config) []string {
	if !cfg.Fetch.Enabled {
		return nil
	}
	rules := make([]string, 0, len(cfg.Fetch.AllowDomains))
	for _, d := range cfg.Fetch.AllowDomains {
		rules = append(rules, fetch.Name+":"+strings.TrimSpace(d))
	}
	return rules
}

// persistRule saves an "always" answer in the user's config: fetch's
// domain in [fetch] allow_domains. Nil when there is no user config file
// to write (neither XDG_CONFIG_HOME nor HOME is set).
func persistRule() func(rule string) error {
	path := config.UserConfigPath(nil)
	if path == "" {
		return nil
	}
	return func(rule string) error {
		host, ok := strings.CutPrefix(rule, fetch.Name+":")
		if !ok {
			return fmt.Errorf("keel cannot save %q in the config", rule)
		}
		return config.AllowFetchDomain(path, host)
	}
}
