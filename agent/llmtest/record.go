package llmtest

import (
	"encoding/json"
	"net/http"
	"time"
)

// RecordedRequest is what the server received, decoded for assertions.
type RecordedRequest struct {
	N          int    // 0-based position among all requests
	Method     string // always POST for the chat endpoint
	Path       string
	Header     http.Header // includes Authorization
	Body       []byte      // the raw request body
	Model      string
	Stream     bool
	Messages   []RecordedMessage
	Tools      []string // tool names, in order
	DecodeErr  string   // non-empty when the body was not valid JSON
	ReceivedAt time.Time
	FinishedAt time.Time // when the server finished sending (zero while in progress)
	RemoteAddr string    // the client's address: requests on one connection share it
}

// RecordedMessage is one message of a recorded request.
type RecordedMessage struct {
	Role       string
	Content    string          // text content ("" when null, absent or not a string)
	RawContent json.RawMessage // "content" exactly as sent; nil when absent
	ToolCalls  []Call
	ToolCallID string
	Name       string
	Images     []string        // the image_url parts' URLs (data:image/png;base64,…), in order
	Raw        json.RawMessage // the whole message as sent
}

// wire shapes of the request body.
type wireRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Messages []json.RawMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	Name       string          `json:"name"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// decodeInto fills the decoded fields of rec from its Body.
func decodeInto(rec *RecordedRequest) {
	var w wireRequest
	if err := json.Unmarshal(rec.Body, &w); err != nil {
		rec.DecodeErr = err.Error()
		return
	}
	rec.Model, rec.Stream = w.Model, w.Stream
	for _, t := range w.Tools {
		rec.Tools = append(rec.Tools, t.Function.Name)
	}
	for _, raw := range w.Messages {
		rec.Messages = append(rec.Messages, decodeMessage(raw))
	}
}

func decodeMessage(raw json.RawMessage) RecordedMessage {
	var m wireMessage
	_ = json.Unmarshal(raw, &m) // a malformed message still shows in Raw
	out := RecordedMessage{Role: m.Role, RawContent: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, Raw: raw}
	if json.Unmarshal(m.Content, &out.Content) != nil { // content parts: text joined, images apart
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		for _, p := range parts {
			out.Content += p.Text
			if p.Type == "image_url" {
				out.Images = append(out.Images, p.ImageURL.URL)
			}
		}
	}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, Call{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	return out
}

// clone returns a deep enough copy for a caller to keep.
func (r *RecordedRequest) clone() RecordedRequest {
	c := *r
	c.Header = r.Header.Clone()
	return c
}
