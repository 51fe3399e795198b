// Package telemetry exports keel's sessions to an OpenTelemetry backend over
// OTLP/HTTP: traces (session → task → round → tool execution, named and
// attributed by the GenAI semantic conventions, keel's own figures under
// keel.*) and metrics (tokens, cost, round and tool durations,
// interventions).
//
// A live session feeds a SessionTracer through agent.Options.Observer, on
// the agent's goroutines: nothing there waits for the network. Ended spans
// go into a bounded queue; when it is full they are dropped and counted
// (Exporter.Dropped, shown by /status), and a collector that fails costs a
// warning, once per outage. ExportSession builds the same spans from a
// session the datalog stored (keel log export --otlp).
//
// Prompts, answers, arguments and results are sent only with
// Options.LogContent, and then through Options.Redact, the datalog's
// redaction. The package never imports ui.
package telemetry
