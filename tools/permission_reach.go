package tools

import "encoding/json"

// Reacher is a tool whose calls may reach beyond the project depending
// on their arguments, such as recall over every project's sessions (other
// projects' prompts, answers and commands, secrets included). The policy
// asks before such a call, as before a write, unless --yolo or a rule or
// session grant naming the tool allows it; headless with no rule it is
// denied.
type Reacher interface {
	// Beyond says what the call reaches outside the project ("" when it
	// stays inside), in words for the question.
	Beyond(args json.RawMessage) string
}

// reaches is what the call of a Reacher reaches beyond the project.
func (p *Policy) reaches(tool string, args json.RawMessage) string {
	r, ok := p.reachers[tool]
	if !ok {
		return ""
	}
	return r.Beyond(args)
}
