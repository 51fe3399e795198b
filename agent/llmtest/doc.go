// Package llmtest is a real HTTP fake of the OpenAI chat-completions API for tests: scripted rounds, fault injection and a record of every request.
package llmtest
