package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// apiError is a failure a server described: an HTTP error response's
// body, or an error event inside a stream (quirk_stream_error.go).
type apiError struct {
	Status  int    // the HTTP status; 0 when the server gave none
	Message string // the server's message, or its body's text
	Code    string // its code, e.g. "context_length_exceeded"
	Type    string // its type, e.g. "insufficient_quota"
}

func (e *apiError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
	}
	return e.Message
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// httpError reads a failed response's body into an *apiError.
func httpError(resp *http.Response) *apiError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e, ok := parseErrorBody(b)
	if !ok {
		e = &apiError{Message: bodyText(b)}
	}
	e.Status = resp.StatusCode
	return e
}

// parseErrorBody reads a body of OpenAI's error shape,
// {"error": {"message": ..., "type": ..., "code": ...}}, or of the other
// shapes servers send (quirk_error_shapes.go); ok is false for any other
// body.
func parseErrorBody(b []byte) (*apiError, bool) {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &body) != nil || len(body.Error) == 0 || string(body.Error) == "null" {
		return nil, false
	}
	return errorObject(body.Error), true
}

// bodyText is a body that is not an error object, as a message: trimmed
// and cut to 500 bytes (an HTML page from a proxy can be long).
func bodyText(b []byte) string {
	msg := strings.TrimSpace(string(b))
	if len(msg) > 500 {
		msg = strings.ToValidUTF8(msg[:500], "") + "…"
	}
	return msg
}
