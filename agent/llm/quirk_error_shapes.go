package llm

import (
	"encoding/json"
	"strconv"
	"strings"
)

// OpenAI's error is an object with a string message, type and code.
// Others differ: Ollama sends "error" as a plain string; vLLM sends the
// code as a number (the HTTP status); OpenAI's schema errors send the
// message as a list of strings. Each becomes one *apiError.
func errorObject(raw json.RawMessage) *apiError {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &apiError{Message: s} // Ollama
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return &apiError{Message: bodyText(raw)}
	}
	return &apiError{Message: jsonText(obj.Message), Type: jsonText(obj.Type), Code: jsonText(obj.Code)}
}

// jsonText is a JSON value as text: a string as it is, a number as
// written, a list of strings joined by ", ", null as "", anything else
// as its JSON.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := strconv.ParseFloat(string(n), 64); err == nil && i == float64(int64(i)) {
			return strconv.FormatInt(int64(i), 10)
		}
		return n.String()
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, ", ")
	}
	return string(raw)
}
