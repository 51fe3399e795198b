// Package llm speaks the OpenAI chat-completions wire format to any
// compatible server: it builds the request body, streams the answer
// (server-sent events, one chunk decoder), accumulates text, reasoning and
// tool calls, reports usage, and classifies provider errors so the agent
// can decide whether to retry.
//
// keel owns this wire format rather than using a client library as
// designed: a client that takes the history as a Go value encodes all of
// it every round, and at 400 rounds that cost 3.8x keel's CPU per round
// (docs/BENCHMARKS.md, "Hand-written code and the 2x rule"). Here each
// message is encoded once and the body's head is only appended to.
//
// The files:
//
//	client.go         Config, Client.Stream: one call, start to end
//	wire_request.go   the request body and its encoding cache
//	wire_stream.go    the event stream: data payloads, [DONE]
//	wire_chunk.go     one chunk's JSON, decoded with encoding/json
//	wire_error.go     a server's error body or error event
//	accumulate.go     chunks folded into a Response and Deltas
//	watch.go          the idle timeout and the response headers
//	classify.go       failures sorted into Kinds; retry.go retries them
//	quirk_*.go        one file per way a server departs from OpenAI's API
//
// A provider quirk is one quirk_*.go file: the fields it adds to the wire
// types (a struct embedded in them, so encoding/json fills it) or the
// decision it changes, with a comment naming the servers that need it,
// and a test that feeds its wire sample (agent/llmtest can send most).
package llm
