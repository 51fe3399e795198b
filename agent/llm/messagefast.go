package llm

import "encoding/json"

// DecodeMessage decodes a Message from its JSON (as encoding/json writes
// it) into a zero m, as json.Unmarshal would. Opening a stored session
// reads thousands of messages back, and reflection was a third of it; the
// shape keel writes takes a fast path (the scanner of fastDecodeChunk),
// anything else goes to encoding/json (FuzzDecodeMessage).
func DecodeMessage(raw []byte, m *Message) error {
	if fastDecodeMessage(raw, m) {
		return nil
	}
	*m = Message{}
	return json.Unmarshal(raw, m)
}

// fastDecodeMessage decodes raw into m, reporting false when it gave up
// (m is then undefined).
func fastDecodeMessage(raw []byte, m *Message) bool {
	s := &scan{b: raw}
	*m = Message{}
	ok := s.object(func(key string) bool {
		switch key {
		case "role":
			role := string(m.Role)
			ok := s.strInto(&role)
			m.Role = Role(role)
			return ok
		case "content":
			return s.strInto(&m.Content)
		case "reasoning":
			return s.strInto(&m.Reasoning)
		case "tool_calls":
			return array(s, &m.ToolCalls, s.messageCall)
		case "tool_call_id":
			return s.strInto(&m.ToolCallID)
		case "name":
			return s.strInto(&m.Name)
		}
		return s.unknown(key, "role", "content", "reasoning", "tool_calls", "tool_call_id", "name")
	})
	s.ws()
	return ok && s.i == len(s.b)
}

func (s *scan) messageCall(c *ToolCall) bool {
	return s.object(func(key string) bool {
		switch key {
		case "id":
			return s.strInto(&c.ID)
		case "name":
			return s.strInto(&c.Name)
		case "arguments":
			return s.strInto(&c.Arguments)
		}
		return s.unknown(key, "id", "name", "arguments")
	})
}
