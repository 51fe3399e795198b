package config

import "time"

// Config is keel's effective configuration: defaults overlaid by the user
// file, the project file, the environment and flags. Load fills it; Source
// tells where each value came from.
type Config struct {
	DefaultProvider   string              `toml:"default_provider"`
	Model             string              `toml:"model"`
	ReflectionCadence int                 `toml:"reflection_cadence"`
	MaxTurns          int                 `toml:"max_turns"`
	MaxToolCalls      int                 `toml:"max_tool_calls"`
	TokenBudget       int                 `toml:"token_budget"`
	StreamIdleTimeout time.Duration       `toml:"stream_idle_timeout"`
	CompactAt         float64             `toml:"compact_at"`
	MaxCompactions    int                 `toml:"max_compactions"`
	CompactKeepRounds int                 `toml:"compact_keep_rounds"`
	ToolOutputCap     int                 `toml:"tool_output_cap"`
	Yolo              bool                `toml:"yolo"`
	Sandbox           string              `toml:"sandbox"`          // SandboxAuto, SandboxOn or SandboxOff
	SandboxWritable   []string            `toml:"sandbox_writable"` // extra writable directories, "~/" expanded
	Providers         map[string]Provider `toml:"providers"`
	Permissions       Permissions         `toml:"permissions"`
	Discipline        Discipline          `toml:"discipline"`
	Plan              Plan                `toml:"plan"`
	Datalog           Datalog             `toml:"datalog"`
	UI                UI                  `toml:"ui"`
	MCP               MCP                 `toml:"mcp"`

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

// The values of the sandbox key.
const (
	SandboxAuto = "auto" // sandbox commands where the kernel supports it
	SandboxOn   = "on"   // required: refuse to run commands when unsupported
	SandboxOff  = "off"  // never sandbox commands
)

// Discipline holds the [discipline] thresholds; 0 disables a rule.
type Discipline struct {
	Reread          int      `toml:"reread"`
	RepeatWarn      int      `toml:"repeat_warn"`
	RepeatHalt      int      `toml:"repeat_halt"`
	ErrorStreak     int      `toml:"error_streak"`
	ErrorStreakHalt int      `toml:"error_streak_halt"`
	StallCalls      int      `toml:"stall_calls"`
	Verify          bool     `toml:"verify"`
	PlanContinue    bool     `toml:"plan_continue"`
	PlanContinueMax int      `toml:"plan_continue_max"`
	MonologueWarn   int      `toml:"monologue_warn"`
	MonologueHalt   int      `toml:"monologue_halt"`
	AlternationHalt int      `toml:"alternation_halt"`
	VerifyPatterns  []string `toml:"verify_patterns"`
	// VerifyPatternsExtra adds to VerifyPatterns (the user's own checks
	// without restating keel's list).
	VerifyPatternsExtra []string `toml:"verify_patterns_extra"`
	VerifySkipSuffixes  []string `toml:"verify_skip_suffixes"`
}

// Plan holds the [plan] settings.
type Plan struct {
	Confirm              bool `toml:"confirm"`
	MaxBacktrackAttempts int  `toml:"max_backtrack_attempts"`
	StallThreshold       int  `toml:"stall_threshold"`
}

// Datalog holds the [datalog] settings.
type Datalog struct {
	Path          string `toml:"path"`
	CaptureBodies bool   `toml:"capture_bodies"`
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
		ReflectionCadence: 10,
		MaxTurns:          100,
		MaxToolCalls:      500,
		StreamIdleTimeout: 120 * time.Second,
		CompactAt:         0.8,
		MaxCompactions:    3,
		CompactKeepRounds: 4,
		ToolOutputCap:     64 << 10,
		Sandbox:           SandboxAuto,
		Providers: map[string]Provider{
			"openai": {Name: "openai", BaseURL: DefaultOpenAIBaseURL, APIKeyEnv: "OPENAI_API_KEY", Model: DefaultOpenAIModel, ContextWindow: DefaultContextWindow},
			"ollama": {Name: "ollama", BaseURL: "http://localhost:11434/v1", ContextWindow: DefaultContextWindow},
		},
		Discipline: Discipline{
			Reread: 3, RepeatWarn: 3, RepeatHalt: 4, ErrorStreak: 3, ErrorStreakHalt: 5,
			StallCalls: 30, Verify: true, PlanContinue: true, PlanContinueMax: 3,
			MonologueWarn: 3, MonologueHalt: 4, AlternationHalt: 6,
			VerifyPatterns: DefaultVerifyPatterns(), VerifySkipSuffixes: DefaultVerifySkipSuffixes(),
		},
		Plan: Plan{MaxBacktrackAttempts: 3, StallThreshold: 5},
		UI:   UI{Theme: "auto"},
	}
	c.sources = map[string]Source{}
	c.ignored = map[string]Source{}
	return c
}

// DefaultVerifyPatterns returns the commands that count as verifying an
// edit when they succeed: keel's one list (discipline.verify_patterns;
// verify_patterns_extra adds to it).
func DefaultVerifyPatterns() []string {
	return []string{
		"go test", "go build", "go vet", "make test", "make check", "make lint",
		"cargo test", "cargo build", "cargo check", "cargo clippy",
		"npm test", "npm run test", "npm run build", "npm run lint", "npx tsc", "tsc",
		"yarn test", "pnpm test", "bun test", "deno test", "npx jest", "npx vitest",
		"pytest", "python -m pytest", "python3 -m pytest", "mypy", "ruff", "eslint",
		"golangci-lint", "staticcheck", "mvn test", "gradle test", "./gradlew test",
		"dotnet test", "dotnet build", "swift test", "swift build", "mix test",
		"rspec", "bundle exec rspec", "ctest", "zig build",
	}
}

// DefaultVerifySkipSuffixes are the file suffixes whose edits need no
// build or test: prose, and data and configuration files, which no test
// command checks (a model that edits one is not asked to run the tests).
func DefaultVerifySkipSuffixes() []string {
	return []string{".md", ".markdown", ".txt", ".rst", ".adoc",
		".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".csv"}
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
