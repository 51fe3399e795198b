package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// numFiles is how many small files the workload reads, round-robin.
const numFiles = 10

// Workload is the scripted model: Rounds rounds of one read_file each, then
// a final answer, at a simulated model speed.
type Workload struct {
	Rounds     int
	TTFT       time.Duration // time to first token: delay before each answer
	ChunkDelay time.Duration // delay between stream chunks
	NoDatalog  bool          // diagnostic: make the datalog fail to open, so keel runs without it
	// FreshDatalog runs keel on a new datalog, as on its first run on a
	// machine (it creates the schema); by default each run starts with the
	// datalog an earlier run left, as a user's keel does.
	FreshDatalog bool
	// NullClient runs keelbench's null client in keel's place: the floor
	// under keel's figures (nullclient.go).
	NullClient bool
	// OTLP turns keel's telemetry on, sending to this OTLP/HTTP endpoint.
	OTLP string
	seed string // the datalog each run starts from (RunMedian makes it)
}

// finalAnswer is the fake model's last message.
const finalAnswer = "I read every file; they each define one small function."

// Script returns the fake server's script. The round number comes from the
// tool results in the request, not the request count, so a retry or an
// extra request (compaction) does not shift the workload.
func (w Workload) Script() llmtest.Script {
	return llmtest.Script{Handler: func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		done := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				done++
			}
		}
		// Report usage as a real server would, so keel's context tracking
		// sees the history grow (about 4 bytes a token).
		usage := &llmtest.Usage{PromptTokens: len(req.Body) / 4, CompletionTokens: 12}
		r := llmtest.Round{Usage: usage, Delay: w.TTFT, DelayBetweenChunks: w.ChunkDelay}
		if done >= w.Rounds {
			r.Text = finalAnswer
			return r
		}
		r.ToolCalls = []llmtest.Call{{
			ID:   fmt.Sprintf("call_%d", done),
			Name: "read_file",
			Args: fmt.Sprintf(`{"path":%q}`, fileName(done%numFiles)),
		}}
		return r
	}}
}

// Prompt is the task keel is given.
func (w Workload) Prompt() string {
	return fmt.Sprintf("Read the %d files in this project one at a time, %d reads in all, then summarize them.", numFiles, w.Rounds)
}

func fileName(i int) string { return fmt.Sprintf("f%d.go", i) }

// fileBody is one small Go file of about 400 bytes.
func fileBody(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package p holds file %d of the keelbench workload.\npackage p\n\n", i)
	fmt.Fprintf(&b, "// F%d returns the sum of the first n numbers plus %d.\nfunc F%d(n int) int {\n", i, i, i)
	b.WriteString("\ts := 0\n\tfor k := 1; k <= n; k++ {\n\t\ts += k\n\t}\n")
	fmt.Fprintf(&b, "\treturn s + %d\n}\n\n", i)
	fmt.Fprintf(&b, "// G%d is a second small function so the file is not trivial.\nfunc G%d(x string) string { return x + %q }\n", i, i, fmt.Sprint(i))
	return b.String()
}

// benchConfig is the user config of the benchmark run. The defaults stay,
// except the limits and the guards the synthetic workload trips by
// design: a model that cycles through ten unchanged files repeats the same
// call with the same result and re-reads the same lines, which keel
// rightly halts as a loop.
const benchConfig = `max_turns = 0
max_tool_calls = 0

[discipline]
repeat_halt = 0
reread_halt = 0
`

// Dirs are the temporary directories of one run.
type Dirs struct {
	Root    string // holds everything below; removed after the run
	Project string // the workspace keel runs in
	Home    string // HOME, with XDG_CONFIG_HOME and XDG_DATA_HOME inside
}

// ConfigHome is $XDG_CONFIG_HOME of the run.
func (d Dirs) ConfigHome() string { return filepath.Join(d.Home, "config") }

// DataHome is $XDG_DATA_HOME of the run.
func (d Dirs) DataHome() string { return filepath.Join(d.Home, "data") }

// Datalog is where keel writes its database.
func (d Dirs) Datalog() string { return filepath.Join(d.DataHome(), "keel", "keel.db") }

// makeDirs creates a temporary project with the ten files, a HOME and the
// benchmark config. Without a datalog, $XDG_DATA_HOME is a plain file, so
// keel cannot create its database and runs with the datalog off.
func makeDirs(noDatalog bool) (Dirs, error) {
	root, err := os.MkdirTemp("", "keelbench-")
	if err != nil {
		return Dirs{}, fmt.Errorf("create a temp dir: %w", err)
	}
	d := Dirs{Root: root, Project: filepath.Join(root, "project"), Home: filepath.Join(root, "home")}
	files := map[string]string{filepath.Join(d.ConfigHome(), "keel", "config.toml"): benchConfig}
	for i := range numFiles {
		files[filepath.Join(d.Project, fileName(i))] = fileBody(i)
	}
	if noDatalog {
		files[d.DataHome()] = "not a directory: keelbench -datalog=false\n"
	}
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return d, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return d, fmt.Errorf("write %s: %w", path, err)
		}
	}
	return d, nil
}

// env is the child's whole environment: nothing leaks in from the caller
// except PATH, so a user's config or datalog is never touched.
func (d Dirs) env(baseURL, otlp string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + d.Home,
		"XDG_CONFIG_HOME=" + d.ConfigHome(),
		"XDG_DATA_HOME=" + d.DataHome(),
		"OPENAI_BASE_URL=" + baseURL,
		"OPENAI_API_KEY=sk-keelbench-not-a-secret",
		"TERM=xterm-256color",
		"KEEL_CPUPROFILE=" + os.Getenv("KEEL_CPUPROFILE"), // profile keel itself when set
	}
	if otlp != "" {
		env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+otlp)
	}
	// The Go runtime's knobs reach keel when set, for A/B runs.
	for _, name := range []string{"GOMAXPROCS", "GODEBUG", "GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}
