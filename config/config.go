package config

import (
	"time"

	"github.com/keel-dev/keel/discipline"
)

// Config is keel's effective configuration: defaults overlaid by the user
// file, the project file, the environment and flags. Load fills it; Source
// tells where each value came from.
type Config struct {
	DefaultProvider   string `toml:"default_provider"`
	Model             string `toml:"model"`
	ReflectionCadence int    `toml:"reflection_cadence"`
	// ReflectionStructured: a checkpoint asks for a reflect call, which
	// keel validates and acts on; false asks for free text.
	ReflectionStructured bool                `toml:"reflection_structured"`
	MaxDuration          time.Duration       `toml:"max_duration"`
	MaxTurns             int                 `toml:"max_turns"`
	MaxToolCalls         int                 `toml:"max_tool_calls"`
	TokenBudget          int                 `toml:"token_budget"`
	StreamIdleTimeout    time.Duration       `toml:"stream_idle_timeout"`
	MaxRetryWait         time.Duration       `toml:"max_retry_wait"`
	CompactAt            float64             `toml:"compact_at"`
	MaxCompactions       int                 `toml:"max_compactions"`
	CompactKeepRounds    int                 `toml:"compact_keep_rounds"`
	ToolOutputCap        int                 `toml:"tool_output_cap"`
	Yolo                 bool                `toml:"yolo"`
	Sandbox              Sandbox             `toml:"sandbox"`
	Providers            map[string]Provider `toml:"providers"`
	Permissions          Permissions         `toml:"permissions"`
	Discipline           discipline.Values   `toml:"discipline"` // keys declared by the guards (discipline.Settings)
	Plan                 Plan                `toml:"plan"`
	Memory               Memory              `toml:"memory"`
	Datalog              Datalog             `toml:"datalog"`
	UI                   UI                  `toml:"ui"`
	MCP                  MCP                 `toml:"mcp"`
	Telemetry            Telemetry           `toml:"telemetry"`
	Hooks                []Hook              `toml:"-"` // [[hooks.EVENT]] entries, every file's (hooks.go)
	Subagents            Subagents           `toml:"subagents"`
	Images               Images              `toml:"images"`
	Fetch                Fetch               `toml:"fetch"`

	sources     map[string]Source // dotted key -> where its value came from
	ignored     map[string]Source // dotted key -> where an untrusted project set it
	untrusted   projectTrust      // the project whose keys were ignored, and why
	files       []string          // config files read, in precedence order
	dataHomeDir string            // resolved $XDG_DATA_HOME (or ~/.local/share)
}

// Provider is one OpenAI-compatible endpoint, a [providers.NAME] table.
type Provider struct {
	Name               string   `toml:"-"`
	BaseURL            string   `toml:"base_url"`
	APIKeyEnv          string   `toml:"api_key_env"`
	APIKey             string   `toml:"api_key"`
	Model              string   `toml:"model"`
	ContextWindow      int      `toml:"context_window"`
	MaxOutputTokens    int      `toml:"max_output_tokens"`
	InputPricePerMTok  float64  `toml:"input_price_per_mtok"`
	OutputPricePerMTok float64  `toml:"output_price_per_mtok"`
	Fallback           []string `toml:"fallback"`
}

// Permissions holds the [permissions] rules, such as "run_command:go test *".
// Deny wins over allow. EnvPassthrough names secret-looking environment
// variables (see SecretEnvName) that run_command children may still inherit.
type Permissions struct {
	Allow          []string `toml:"allow"`
	Deny           []string `toml:"deny"`
	EnvPassthrough []string `toml:"env_passthrough"`
}

// Sandbox holds the [sandbox] settings: how commands are confined.
type Sandbox struct {
	Mode string `toml:"mode"` // SandboxAuto, SandboxOn or SandboxOff
	// Writable: where approved commands may write besides the workspace
	// and temp directories (toolchain caches); "~/" is the home directory.
	Writable []string `toml:"writable"`
	// Readable: what commands keel runs without asking may read outside
	// the workspace and the system's directories; "~/" as in Writable.
	Readable []string `toml:"readable"`
	// Network: approved commands may use the network (false: they may
	// not; commands run without asking never may).
	Network bool `toml:"network"`
}

// The values of sandbox.mode.
const (
	SandboxAuto = "auto" // sandbox commands where the kernel supports it
	SandboxOn   = "on"   // required: refuse to run commands when unsupported
	SandboxOff  = "off"  // never sandbox commands
)

// Plan holds the [plan] settings.
type Plan struct {
	Confirm              bool `toml:"confirm"`
	MaxBacktrackAttempts int  `toml:"max_backtrack_attempts"`
	StallThreshold       int  `toml:"stall_threshold"`
}

// Memory holds the [memory] settings: the working memory (the note
// tool) and episodic memory (lessons from finished tasks).
type Memory struct {
	NotesMax       int  `toml:"notes_max"`
	Lessons        bool `toml:"lessons"`
	LessonsOffered int  `toml:"lessons_offered"`
}

// Datalog holds the [datalog] settings.
type Datalog struct {
	Path          string `toml:"path"`
	CaptureBodies bool   `toml:"capture_bodies"`
}

// Telemetry holds the [telemetry] settings: OpenTelemetry export, off by
// default (the OTEL_EXPORTER_OTLP_* variables also turn it on).
type Telemetry struct {
	Enabled    bool   `toml:"enabled"`
	Endpoint   string `toml:"endpoint"`
	LogContent bool   `toml:"log_content"`
}

// Subagents holds the [subagents] settings: the task tool's children.
type Subagents struct {
	MaxParallel  int      `toml:"max_parallel"`
	MaxTurns     int      `toml:"max_turns"`
	MaxToolCalls int      `toml:"max_tool_calls"`
	Tools        []string `toml:"tools"`
}

// Fetch holds the [fetch] settings: the fetch tool's reach and limits.
type Fetch struct {
	Enabled bool `toml:"enabled"`
	// AllowDomains are hosts fetched without asking ("docs.python.org",
	// "*.python.org"); "always" in the question adds one to the user's file.
	AllowDomains []string `toml:"allow_domains"`
	// AllowNetworks are special-use addresses (CIDR prefixes or single
	// addresses) fetch may connect to anyway: an intranet, a local server.
	AllowNetworks []string      `toml:"allow_networks"`
	MaxBytes      int           `toml:"max_bytes"`
	Timeout       time.Duration `toml:"timeout"`
	MaxRedirects  int           `toml:"max_redirects"`
}

// UI holds the [ui] settings.
type UI struct {
	Mouse bool   `toml:"mouse"`
	Theme string `toml:"theme"`
}

// DefaultOpenAIBaseURL is the public OpenAI endpoint, used when
// OPENAI_BASE_URL is not set.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// DefaultContextWindow is the context window assumed for a provider that
// does not set context_window.
const DefaultContextWindow = 128000

// DefaultOpenAIModel is the built-in openai provider's model, so a user
// with only OPENAI_API_KEY set can start; --model or model = changes it.
const DefaultOpenAIModel = "gpt-4.1-mini"

// Defaults returns the built-in configuration, every source "default".
func Defaults() *Config {
	c := &Config{
		DefaultProvider:   "openai",
		ReflectionCadence: 10, ReflectionStructured: true,
		MaxTurns:          100,
		MaxToolCalls:      500,
		StreamIdleTimeout: 120 * time.Second,
		MaxRetryWait:      120 * time.Second,
		CompactAt:         0.8,
		MaxCompactions:    3,
		CompactKeepRounds: 4,
		ToolOutputCap:     64 << 10,
		Sandbox: Sandbox{Mode: SandboxAuto, Network: true,
			Writable: []string{"~/.cache", "~/go/pkg/mod", "~/.cargo/registry", "~/.cargo/git", "~/.npm/_cacache",
				"~/.m2/repository", "~/.gradle/caches", "~/.gradle/wrapper/dists", "~/.pnpm-store", "~/.local/share/pnpm/store",
				"~/.yarn/berry/cache", "~/.bun/install/cache", "~/.nuget/packages"},
			Readable: []string{"~/go", "~/.cache/go-build", "~/.cargo/bin", "~/.cargo/registry", "~/.cargo/git", "~/.rustup",
				"~/.nvm", "~/.pyenv", "~/.local/bin", "~/.local/lib", "~/.m2/repository", "~/.gradle/caches", "~/.gradle/wrapper",
				"~/.bun/bin", "~/.deno/bin", "~/.sdkman/candidates", "~/.gitconfig", "~/.config/git/config", "~/.config/git/ignore",
				"~/.config/git/attributes"}},
		Providers: map[string]Provider{
			"openai": {Name: "openai", BaseURL: DefaultOpenAIBaseURL, APIKeyEnv: "OPENAI_API_KEY", Model: DefaultOpenAIModel, ContextWindow: DefaultContextWindow},
			"ollama": {Name: "ollama", BaseURL: "http://localhost:11434/v1", ContextWindow: DefaultContextWindow},
		},
		Discipline: discipline.DefaultValues(),
		Plan:       Plan{MaxBacktrackAttempts: 3, StallThreshold: 5},
		Memory:     Memory{NotesMax: 20, Lessons: true, LessonsOffered: 3},
		UI:         UI{Theme: "auto"},
		Images:     Images{Models: defaultImageModels},
		Subagents: Subagents{MaxParallel: 4, MaxTurns: 30, MaxToolCalls: 100,
			Tools: []string{"read_file", "list_dir", "glob", "grep"}},
		Fetch: Fetch{Enabled: true, MaxBytes: 5 << 20, Timeout: 30 * time.Second, MaxRedirects: 5},
	}
	c.sources = map[string]Source{}
	c.ignored = map[string]Source{}
	return c
}

// Source reports where the value of a dotted key (such as
// "reflection_cadence", "discipline.reread" or "providers.openai.base_url")
// came from. Keys never set by a file, the environment or a flag are
// "default".
func (c *Config) Source(key string) Source {
	if s, ok := c.sources[key]; ok {
		return s
	}
	return Source{Kind: FromDefault}
}

// DatalogPath is the datalog database file: datalog.path when set, else
// keel.db under $XDG_DATA_HOME/keel (default ~/.local/share/keel). It is
// "" when none of datalog.path, XDG_DATA_HOME and HOME is set.
func (c *Config) DatalogPath() string {
	if c.Datalog.Path != "" || c.dataHomeDir == "" {
		return c.Datalog.Path
	}
	return joinPath(c.dataHomeDir, "keel", "keel.db")
}

// MCPTokenPath is the 0600 file where keel mcp login keeps OAuth
// sign-ins: mcp-oauth.json under $XDG_DATA_HOME/keel (default
// ~/.local/share/keel); "" when neither XDG_DATA_HOME nor HOME is set.
func (c *Config) MCPTokenPath() string {
	if c.dataHomeDir == "" {
		return ""
	}
	return joinPath(c.dataHomeDir, "keel", "mcp-oauth.json")
}
