package datalog

// Redactor returns the datalog's redaction as a function, for text that
// leaves keel another way (telemetry's content): the values of
// secret-looking variables in environ and of secrets (name → value) are
// replaced with [REDACTED:NAME], exactly as the writer stores them.
func Redactor(environ []string, secrets map[string]string) func(string) string {
	return newRedactor(environ, secrets).String
}
