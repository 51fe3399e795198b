// Command mcpserver is mcptest's server over stdio, for tests that need a
// binary (keel's end-to-end tests build it with go build).
package main

import "github.com/keel-dev/keel/tools/mcp/mcptest"

func main() { mcptest.ServeStdio() }
