// Package llmtest is a real HTTP fake of the OpenAI chat-completions API for
// tests and benchmarks: scripted rounds (text, reasoning, tool calls with
// arguments split across chunks, parallel calls), the quirks of real
// servers, fault injection (status codes with headers, delays, keep-alive
// floods, truncation, hangs, connection resets) and a record of every
// request it received. It listens on loopback only and needs no
// *testing.T, so programs such as cmd/keelbench can use it too.
package llmtest
