package ui

import (
	"fmt"
	"net/url"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/common"
)

// StatusInfo is what /status reports that only cmd/keel knows. Nothing in
// it is a secret: the base URL is shown by its host only.
type StatusInfo struct {
	BaseURL     string        // the provider's endpoint
	Workspace   string        // the workspace's root
	DatalogPath string        // "" when the datalog is off
	Sandbox     string        // "on", or "off" and why
	MCPServers  int           // configured MCP servers
	Telemetry   func() string // "off", or where spans go and how many were dropped; nil: not shown
}

// cmdCost reports the tokens and cost of the current (or last) task and
// of the session, from the figures the status bar keeps.
func (m *Model) cmdCost(string) tea.Cmd {
	m.notice(m.status.CostReport())
	return nil
}

// cmdStatus reports what this session runs with.
func (m *Model) cmdStatus(string) tea.Cmd {
	info := m.opts.Status
	id := "none (the datalog is off)"
	if m.session != nil && m.session.ID() != "" {
		id = m.session.ID()
	}
	rows := [][2]string{
		{"model", m.status.ModelLabel()},
		{"endpoint", m.endpoint()},
		{"workspace", orUnknown(info.Workspace)},
		{"session", id},
		{"datalog", orText(info.DatalogPath, "off")},
		{"sandbox", orUnknown(info.Sandbox)},
		{"mcp", common.Plural(info.MCPServers, "server") + " configured (/mcp for their state)"},
	}
	if info.Telemetry != nil {
		rows = append(rows, [2]string{"telemetry", info.Telemetry()})
	}
	lines := []string{"status"}
	for _, r := range rows {
		lines = append(lines, fmt.Sprintf("%-10s %s", r[0], r[1]))
	}
	m.notice(strings.Join(lines, "\n"))
	return nil
}

// endpoint is the provider's host, or what stands in for one.
func (m *Model) endpoint() string {
	if m.opts.Demo {
		return "none: the demo's model is a script inside keel"
	}
	return orUnknown(urlHost(m.opts.Status.BaseURL))
}

// urlHost is a URL's host (and port): no path, user or query, which may
// hold a key.
func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Host
}

func orUnknown(s string) string { return orText(s, "unknown") }

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// cmdJobs lists the session's background jobs, running first.
func (m *Model) cmdJobs(string) tea.Cmd {
	var jobs []tools.JobInfo
	if m.session != nil {
		jobs = m.session.Jobs()
	}
	if len(jobs) == 0 {
		m.notice("jobs: none (run_command with background true starts one)")
		return nil
	}
	lines := []string{"jobs"}
	for _, running := range []bool{true, false} {
		for _, j := range jobs {
			if j.Running == running {
				lines = append(lines, jobLine(j))
			}
		}
	}
	m.notice(strings.Join(lines, "\n"))
	return nil
}

// jobLine is one job as /jobs and the end notice show it.
func jobLine(j tools.JobInfo) string {
	state := "running"
	switch {
	case j.Running:
	case j.StoppedBy != "":
		state = "stopped by " + j.StoppedBy
	case j.ExitCode != nil:
		state = fmt.Sprintf("ended, exit code %d", *j.ExitCode)
	}
	return fmt.Sprintf("job %s  %s  %s  %s", j.ID, state, common.Bytes(j.OutputBytes), common.Clean(j.Command))
}
