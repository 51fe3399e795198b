package config

import (
	"strings"
	"sync"

	"github.com/keel-dev/keel/discipline"
)

// kind is the TOML shape a key accepts.
type kind int

const (
	kindInt kind = iota
	kindFloat
	kindBool
	kindString
	kindDuration // a string such as "120s", parsed by time.ParseDuration
	kindStrings  // an array of strings
)

// field describes one configuration key. The schema drives decoding, the
// environment and flags, validation, Render and InitTemplate, so a key added
// here is handled everywhere at once.
type field struct {
	key string            // dotted key, e.g. "discipline.reread"
	typ kind              // accepted shape
	doc string            // one line for InitTemplate
	ptr func(*Config) any // pointer to the value inside a Config
}

// providerField is a key of a [providers.NAME] table.
type providerField struct {
	key string
	typ kind
	doc string
	ptr func(*Provider) any
}

// allFields lists every key outside [providers], in the order Render and
// InitTemplate print them: the [discipline] keys come from the guards
// (discipline.Settings), after [permissions]. It is built on first use.
var allFields = sync.OnceValue(func() []field { return withDiscipline(fixedFields) })

// fixedFields are the keys config declares itself.
var fixedFields = []field{
	{"default_provider", kindString, "provider used unless --provider says otherwise", func(c *Config) any { return &c.DefaultProvider }},
	{"model", kindString, "model name; overrides the provider's model (empty = the provider's)", func(c *Config) any { return &c.Model }},
	{"reflection_cadence", kindInt, "tool calls between checkpoints; 0 disables them", func(c *Config) any { return &c.ReflectionCadence }},
	{"reflection_structured", kindBool, "checkpoints ask for a reflect call (progress, evidence, confidence, adjustment) that keel acts on; false: free text", func(c *Config) any { return &c.ReflectionStructured }},
	{"max_duration", kindDuration, `wall-clock time per user task, e.g. "30m"; 0 = no limit`, func(c *Config) any { return &c.MaxDuration }},
	{"max_turns", kindInt, "LLM rounds per user task; 0 = no cap", func(c *Config) any { return &c.MaxTurns }},
	{"max_tool_calls", kindInt, "tool calls per user task; 0 = no cap", func(c *Config) any { return &c.MaxToolCalls }},
	{"token_budget", kindInt, "tokens per user task; 0 = no budget", func(c *Config) any { return &c.TokenBudget }},
	{"stream_idle_timeout", kindDuration, "give up on an attempt whose server sends nothing but keep-alive comments for this long (the status names it from a quarter of this, at most 10 s)", func(c *Config) any { return &c.StreamIdleTimeout }},
	{"max_retry_wait", kindDuration, "longest wait keel honours of a server's Retry-After (429, 503...) before retrying", func(c *Config) any { return &c.MaxRetryWait }},
	{"compact_at", kindFloat, "compact history past this fraction of the context window, in (0, 1]", func(c *Config) any { return &c.CompactAt }},
	{"max_compactions", kindInt, "compactions per task before stopping with context_overflow", func(c *Config) any { return &c.MaxCompactions }},
	{"compact_keep_rounds", kindInt, "latest rounds a compaction keeps word for word (0: the last one)", func(c *Config) any { return &c.CompactKeepRounds }},
	{"tool_output_cap", kindInt, "bytes of tool output sent to the model (head and tail kept)", func(c *Config) any { return &c.ToolOutputCap }},
	{"yolo", kindBool, "allow every tool call without asking (never .git/ or outside-workspace writes)", func(c *Config) any { return &c.Yolo }},

	{"permissions.allow", kindStrings, `rules allowed without asking, e.g. "edit_file", "run_command:go test *"`, func(c *Config) any { return &c.Permissions.Allow }},
	{"permissions.deny", kindStrings, "rules always denied; deny wins over allow", func(c *Config) any { return &c.Permissions.Deny }},
	{"permissions.env_passthrough", kindStrings, `secret-looking variables (*_KEY, *_TOKEN...) commands may still inherit, e.g. "NPM_TOKEN"`, func(c *Config) any { return &c.Permissions.EnvPassthrough }},

	{"plan.confirm", kindBool, "show the first plan with side effects for approval (--confirm-plan)", func(c *Config) any { return &c.Plan.Confirm }},
	{"plan.max_backtrack_attempts", kindInt, "failed plans per task before stopping with plan_failed", func(c *Config) any { return &c.Plan.MaxBacktrackAttempts }},
	{"plan.stall_threshold", kindInt, "rounds after which an active step counts as stalled", func(c *Config) any { return &c.Plan.StallThreshold }},

	{"memory.notes_max", kindInt, "facts the working memory (the note tool) holds; the least recently used goes first; 0 disables it", func(c *Config) any { return &c.Memory.NotesMax }},
	{"memory.lessons", kindBool, "store a lesson when a task ends, and offer the most relevant ones to the next tasks of the project", func(c *Config) any { return &c.Memory.Lessons }},
	{"memory.lessons_offered", kindInt, "lessons offered to a new task at most", func(c *Config) any { return &c.Memory.LessonsOffered }},

	{"sandbox.mode", kindString, `confine commands: "auto" (where the kernel can), "on" (refuse to run them where it cannot) or "off" (then every command asks)`, func(c *Config) any { return &c.Sandbox.Mode }},
	{"sandbox.writable", kindStrings, "caches approved commands may write besides the workspace and temp dirs (not .git/hooks, .git/config, .keel/, AGENTS.md)", func(c *Config) any { return &c.Sandbox.Writable }},
	{"sandbox.readable", kindStrings, "what commands keel runs without asking may read besides the workspace and the system", func(c *Config) any { return &c.Sandbox.Readable }},
	{"sandbox.network", kindBool, "approved commands may use the network (commands run without asking never may)", func(c *Config) any { return &c.Sandbox.Network }},

	{"datalog.path", kindString, "SQLite file; empty = $XDG_DATA_HOME/keel/keel.db", func(c *Config) any { return &c.Datalog.Path }},
	{"datalog.capture_bodies", kindBool, "also store raw request and response bodies", func(c *Config) any { return &c.Datalog.CaptureBodies }},

	{"telemetry.enabled", kindBool, "send traces and metrics over OTLP/HTTP (an OTEL_EXPORTER_OTLP_ENDPOINT variable turns it on too, unless this says false)", func(c *Config) any { return &c.Telemetry.Enabled }},
	{"telemetry.endpoint", kindString, `the collector's OTLP/HTTP base URL, e.g. "http://localhost:4318" (OTEL_EXPORTER_OTLP_ENDPOINT wins)`, func(c *Config) any { return &c.Telemetry.Endpoint }},
	{"telemetry.log_content", kindBool, "also send prompts, answers, tool arguments and results, redacted as the datalog is", func(c *Config) any { return &c.Telemetry.LogContent }},
	{"subagents.max_parallel", kindInt, "subagents (the task tool) running at once; 0 offers no task tool", func(c *Config) any { return &c.Subagents.MaxParallel }},
	{"subagents.max_turns", kindInt, "LLM rounds per subagent task; 0 = no cap", func(c *Config) any { return &c.Subagents.MaxTurns }},
	{"subagents.max_tool_calls", kindInt, "tool calls per subagent task; 0 = no cap", func(c *Config) any { return &c.Subagents.MaxToolCalls }},
	{"subagents.tools", kindStrings, "a subagent's tools when neither the call nor its agent file names them (read-only by default)", func(c *Config) any { return &c.Subagents.Tools }},

	{"images.models", kindStrings, `models that take image input, as patterns ("gpt-4o*", "llava*"); others get images described in words`, func(c *Config) any { return &c.Images.Models }},

	{"fetch.enabled", kindBool, "offer the fetch tool (web pages as markdown); false leaves it out", func(c *Config) any { return &c.Fetch.Enabled }},
	{"fetch.allow_domains", kindStrings, `hosts fetched without asking, e.g. "docs.python.org", "*.python.org"; "always" in the question adds one here`, func(c *Config) any { return &c.Fetch.AllowDomains }},
	{"fetch.allow_networks", kindStrings, `private, loopback or other special-use addresses fetch may reach anyway, e.g. "10.1.0.0/16", "127.0.0.1"`, func(c *Config) any { return &c.Fetch.AllowNetworks }},
	{"fetch.max_bytes", kindInt, "bytes of a page read at most; the rest is cut", func(c *Config) any { return &c.Fetch.MaxBytes }},
	{"fetch.timeout", kindDuration, `time a fetch may take, the page's whole body included, e.g. "30s"`, func(c *Config) any { return &c.Fetch.Timeout }},
	{"fetch.max_redirects", kindInt, "same-host redirects followed (a redirect to another host is reported, not followed)", func(c *Config) any { return &c.Fetch.MaxRedirects }},

	{"ui.mouse", kindBool, "capture the mouse (disables native text selection)", func(c *Config) any { return &c.UI.Mouse }},
	{"ui.theme", kindString, `"auto", "dark" or "light"`, func(c *Config) any { return &c.UI.Theme }},
}

// withDiscipline inserts a field for each guard setting after the last
// [permissions] key: "discipline." and the setting's key, its kind, its
// doc line, and its value in Config.Discipline.
func withDiscipline(fixed []field) []field {
	at := 0
	for i, f := range fixed {
		if strings.HasPrefix(f.key, "permissions.") {
			at = i + 1
		}
	}
	out := append([]field(nil), fixed[:at]...)
	for _, s := range discipline.Settings() {
		key := s.Key
		out = append(out, field{"discipline." + key, settingKind[s.Kind], s.Doc, func(c *Config) any { return c.Discipline.Ptr(key) }})
	}
	return append(out, fixed[at:]...)
}

// settingKind is the TOML shape of each kind of guard setting.
var settingKind = map[discipline.SettingKind]kind{
	discipline.SettingInt: kindInt, discipline.SettingBool: kindBool, discipline.SettingList: kindStrings,
}

// providerFields lists the keys of a [providers.NAME] table.
var providerFields = []providerField{
	{"base_url", kindString, "OpenAI-compatible endpoint", func(p *Provider) any { return &p.BaseURL }},
	{"api_key_env", kindString, "environment variable holding the API key", func(p *Provider) any { return &p.APIKeyEnv }},
	{"api_key", kindString, "the API key itself (prefer api_key_env)", func(p *Provider) any { return &p.APIKey }},
	{"model", kindString, "model used with this provider", func(p *Provider) any { return &p.Model }},
	{"context_window", kindInt, "tokens the model accepts", func(p *Provider) any { return &p.ContextWindow }},
	{"max_output_tokens", kindInt, "cap on tokens per answer; 0 = the server's default", func(p *Provider) any { return &p.MaxOutputTokens }},
	{"input_price_per_mtok", kindFloat, "USD per million input tokens, for cost reports; unset: keel's list price of known models", func(p *Provider) any { return &p.InputPricePerMTok }},
	{"output_price_per_mtok", kindFloat, "USD per million output tokens; unset: keel's list price of known models", func(p *Provider) any { return &p.OutputPricePerMTok }},
	{"fallback", kindStrings, "providers tried, in order, when this one keeps failing", func(p *Provider) any { return &p.Fallback }},
}

// sections are the known tables other than [providers], in print order.
var sections = []string{"permissions", "discipline", "plan", "memory", "sandbox", "datalog", "telemetry", "subagents", "images", "fetch", "ui"}

// lookupField returns the field with the given dotted key.
func lookupField(key string) (field, bool) {
	for _, f := range allFields() {
		if f.key == key {
			return f, true
		}
	}
	return field{}, false
}

// lookupProviderField returns the provider field with the given key.
func lookupProviderField(key string) (providerField, bool) {
	for _, f := range providerFields {
		if f.key == key {
			return f, true
		}
	}
	return providerField{}, false
}

// childKeys lists the key names directly inside the table at prefix ("" is
// the top level), for unknown-key suggestions.
func childKeys(prefix string) []string {
	if strings.HasPrefix(prefix, "mcp.servers.") {
		return mcpKeyNames()
	}
	if strings.HasPrefix(prefix, "providers.") {
		names := make([]string, len(providerFields))
		for i, f := range providerFields {
			names[i] = f.key
		}
		return names
	}
	var names []string
	if prefix == "" {
		names = append(names, "providers", "mcp", "hooks")
		names = append(names, sections...)
	}
	for _, f := range allFields() {
		rest, ok := strings.CutPrefix(f.key, prefix)
		if prefix != "" && (!ok || !strings.HasPrefix(rest, ".")) {
			continue
		}
		rest = strings.TrimPrefix(rest, ".")
		if !strings.Contains(rest, ".") {
			names = append(names, rest)
		}
	}
	return names
}

// providerKey is the dotted key of a provider field, as used by Source.
func providerKey(name, key string) string { return "providers." + name + "." + key }
