// Package mcp is keel's client for Model Context Protocol servers, on the
// official Go SDK. A Manager starts the configured servers in the
// background (stdio commands in their own process group with a scrubbed
// environment, or streamable HTTP endpoints), lists their tools and
// offers them as tools.Tool values named mcp__SERVER__TOOL through one
// tools.Group: a server's tools join the tool list from the first request
// after it has started, a call to a server still starting waits for it,
// and a server that failed or crashed is reported once and started again
// on its next use. Every call has a timeout and its result is capped.
// The package never imports config, agent or ui: cmd/keel maps the
// configuration onto ServerConfig and wires notices to the user.
package mcp
