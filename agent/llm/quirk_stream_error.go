package llm

import (
	"encoding/json"
	"strconv"
)

// vLLM and OpenRouter report a failure after the 200 status as an event
// whose chunk is {"error": {...}}, often with the HTTP status as its
// code. Some proxies answer 200 with a plain JSON error body, no events
// at all: eventReader keeps such lines, and a stream that ended without
// an answer reports the error they hold.
type streamErrorField struct {
	Error json.RawMessage `json:"error"`
}

// streamError is the error a chunk reports, nil for an ordinary chunk.
func (f *streamErrorField) streamError() error {
	if len(f.Error) == 0 || string(f.Error) == "null" {
		return nil
	}
	e := errorObject(f.Error)
	e.Status, _ = strconv.Atoi(e.Code) // "400", or 400 (jsonText): the status; else 0
	return e
}

// bodyError is the error object that lines outside any event held, or
// nil.
func (e *eventReader) bodyError() error {
	if ae, ok := parseErrorBody(e.other.Bytes()); ok {
		return ae
	}
	return nil
}
