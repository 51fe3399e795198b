// Package fetch is the fetch tool: it gets a web page and returns its main
// content as markdown (go-readability finds the content, html-to-markdown
// converts it). What it may reach is checked twice: the policy asks the
// user per domain before a call runs (the tool is a tools.Scoper), and the
// tool's own dialer refuses private, loopback, link-local and other
// special-use addresses on the address it is about to connect to, so
// neither a redirect nor a DNS answer that changes between look-ups gets
// around it. Its body is read up to a size cap within a timeout.
// Imports tools, never agent, ui or config.
package fetch
