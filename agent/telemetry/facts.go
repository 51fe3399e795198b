package telemetry

import (
	"encoding/json"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/keel-dev/keel/agent/llm"
)

// roundFacts is what a round's span says, from live events or the
// datalog alike.
type roundFacts struct {
	seq          int
	provider     string
	model        string
	finishReason string
	usage        llm.Usage
	cost         *float64 // nil: no price known
	firstToken   time.Duration
	response     time.Duration
	retries      int
	planStep     string // "2/5" of the plan's active step, "" without a plan
	stepTitle    string // content
	answer       string // content: the round's text
}

// attrs are the round span's attributes, content left out.
func (r roundFacts) attrs() []attribute.KeyValue {
	kv := []attribute.KeyValue{
		keyOperation.String(opChat),
		keyProvider.String(r.provider),
		keyRequestModel.String(r.model),
		keyInputTokens.Int(r.usage.PromptTokens),
		keyOutputTokens.Int(r.usage.CompletionTokens),
		keyRoundSeq.Int(r.seq),
		keyResponseMS.Int64(r.response.Milliseconds()),
	}
	if r.finishReason != "" {
		kv = append(kv, keyFinishReasons.StringSlice([]string{r.finishReason}))
	}
	if r.usage.CachedTokens > 0 {
		kv = append(kv, keyCacheReadTokens.Int(r.usage.CachedTokens))
	}
	if r.firstToken > 0 {
		kv = append(kv, keyFirstTokenMS.Int64(r.firstToken.Milliseconds()))
	}
	if r.retries > 0 {
		kv = append(kv, keyRetries.Int(r.retries))
	}
	if r.cost != nil {
		kv = append(kv, keyCost.Float64(*r.cost))
	}
	if r.planStep != "" {
		kv = append(kv, keyPlanStep.String(r.planStep))
	}
	return kv
}

// contentAttrs are the round's texts, for LogContent.
func (r roundFacts) contentAttrs(c content) []attribute.KeyValue {
	var kv []attribute.KeyValue
	if r.answer != "" {
		kv = append(kv, keyOutputMessages.String(c.messages("assistant", r.answer, r.finishReason)))
	}
	if r.stepTitle != "" {
		kv = append(kv, keyPlanStepTitle.String(c.text(r.stepTitle)))
	}
	return kv
}

// roundName is a chat span's name, as the conventions form it.
func roundName(model string) string { return opChat + " " + model }

// toolFacts is what a tool execution's span says.
type toolFacts struct {
	callID, name        string
	isError, denied     bool
	decision, decidedBy string
	exitCode            *int
	run                 time.Duration
	args, result        string // content
}

// outcome is keel.tool.outcome: ok, error or denied.
func (t toolFacts) outcome() string {
	switch {
	case t.denied:
		return "denied"
	case t.isError:
		return "error"
	default:
		return "ok"
	}
}

func (t toolFacts) attrs() []attribute.KeyValue {
	kv := []attribute.KeyValue{
		keyOperation.String(opExecuteTool),
		keyToolName.String(t.name),
		keyToolCallID.String(t.callID),
		keyToolType.String("function"),
		keyToolOutcome.String(t.outcome()),
		keyToolRunMS.Int64(t.run.Milliseconds()),
	}
	if t.decision != "" {
		kv = append(kv, keyPermission.String(t.decision), keyPermissionBy.String(t.decidedBy))
	}
	if t.exitCode != nil {
		kv = append(kv, keyToolExitCode.Int(*t.exitCode))
	}
	if t.outcome() != "ok" {
		kv = append(kv, keyErrorType.String(t.outcome()))
	}
	return kv
}

func (t toolFacts) contentAttrs(c content) []attribute.KeyValue {
	return []attribute.KeyValue{keyToolArguments.String(c.text(t.args)), keyToolResult.String(c.text(t.result))}
}

func toolName(name string) string { return opExecuteTool + " " + name }

// content turns texts keel did not write into attribute values: redacted
// as the datalog redacts, and capped.
type content struct {
	redact func(string) string
}

// maxContent caps one attribute's text; the rest is cut with a note.
const maxContent = 16 << 10

func (c content) text(s string) string {
	if c.redact != nil {
		s = c.redact(s)
	}
	if len(s) > maxContent {
		cut := maxContent
		for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		s = fmt.Sprintf("%s…[%d bytes more]", s[:cut], len(s)-cut)
	}
	return s
}

// messages is one message in the conventions' JSON form for
// gen_ai.input.messages and gen_ai.output.messages.
func (c content) messages(role, text, finish string) string {
	type part struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	msg := struct {
		Role   string `json:"role"`
		Parts  []part `json:"parts"`
		Finish string `json:"finish_reason,omitempty"`
	}{role, []part{{"text", c.text(text)}}, finish}
	b, _ := json.Marshal([]any{msg})
	return string(b)
}
