package ui

// wideLayout is the terminal width from which the plan gets a side panel;
// below it the plan folds to one line above the input.
const wideLayout = 100

// planPanelWidth is the panel's width on a screen width columns wide: a
// third of it, within bounds.
func planPanelWidth(width int) int { return min(max(width*3/10, 36), 56) }

// The smallest screen keel draws on; below it the screen says so.
const (
	minWidth  = 40
	minHeight = 10
)

// layout sizes the children after a resize or a change of what is shown.
func (m *Model) layout() {
	m.input.SetWidth(m.width)
}

// tooSmall reports whether the screen is below the minimum size.
func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

// sidePanel reports whether the plan gets the right-hand panel (wide
// screens) rather than the folded line above the input.
func (m *Model) sidePanel() bool { return m.plan.Visible() && m.width >= wideLayout }

// foldedPlan reports whether the plan shows as one line above the input.
func (m *Model) foldedPlan() bool { return m.plan.Visible() && m.width < wideLayout }

// bottomHeight is the rows below the transcript: completions, folded plan,
// the input (with its top rule) and the status bar.
func (m *Model) bottomHeight() int {
	h := 1 + 1 + m.input.Height() // status bar, rule, input
	if m.foldedPlan() {
		h++
	}
	if m.datalogAlert != "" {
		h++
	}
	h += m.input.CompletionHeight()
	return h
}

// transcriptSize is the transcript's width and height (without a dialog).
func (m *Model) transcriptSize() (int, int) {
	w := m.width
	if m.sidePanel() {
		w -= planPanelWidth(m.width)
	}
	return max(w, 1), max(m.height-m.bottomHeight(), 1)
}
