package llm

import (
	"encoding/json"
	"net/http"
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

// notAStream is the error for a 200 whose body held no event at all and
// no error object: a web page or some other API answered, which happens
// when the base URL lacks its /v1 or points at the wrong port. Retrying
// cannot fix it, so it is not retried; the sentence names the URL, what
// came back and what to check.
func (c *Client) notAStream(events *eventReader, header http.Header) *Error {
	if events.events > 0 || events.other.Len() == 0 {
		return nil
	}
	kind := header.Get("Content-Type")
	if kind == "" {
		kind = "a body of no content type"
	}
	return &Error{Kind: KindBadRequest, Provider: c.cfg.Name, URL: c.endpoint(), NotStream: kind,
		Err: errNotAStream}
}
