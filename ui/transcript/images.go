package transcript

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

// ProgressTool shows how far a running call got: its latest report
// (message and fraction) on its row.
func (t *Model) ProgressTool(ev agent.ToolProgress) {
	e := t.live.tools[ev.CallID]
	if e == nil || e.tool.state != toolRunning {
		return
	}
	e.tool.progress = progressBar(ev.Progress.Fraction()) + cutText(ev.Progress.String(), 48)
	t.changed(e)
}

// toolImageLabels are a call's images as its row shows them: [image W×H].
func toolImageLabels(imgs []tools.Image) []string {
	out := make([]string, len(imgs))
	for i, im := range imgs {
		out[i] = im.Label()
	}
	return out
}

// historyImageLabels are the labels of images kept in a history message.
func historyImageLabels(imgs []llm.Image) []string {
	out := make([]string, len(imgs))
	for i, im := range imgs {
		out[i] = fmt.Sprintf("[image %d×%d]", im.Width, im.Height)
	}
	return out
}

// cutText shortens s to n runes, marking the cut.
func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// addImages notes a tool result's pictures by its call id.
func addImages(m map[string][]string, msg llm.Message) map[string][]string {
	if len(msg.Images) == 0 {
		return m
	}
	if m == nil {
		m = map[string][]string{}
	}
	m[msg.ToolCallID] = historyImageLabels(msg.Images)
	return m
}

// progressBar draws a fraction in eight cells, or nothing when the total
// is not known.
func progressBar(f float64) string {
	if f < 0 {
		return ""
	}
	n := int(f*8 + 0.5)
	return strings.Repeat("▰", n) + strings.Repeat("▱", 8-n) + " "
}
