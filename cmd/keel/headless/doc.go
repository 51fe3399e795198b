// Package headless is keel -p's output: it runs one task of an
// agent.Session and writes text (the answer on stdout, a progress line per
// notable event on stderr), JSON (one result object) or stream-JSON (one
// line per event, then the result). Text the model or a tool wrote goes
// through termtext on its way to the terminal.
package headless
