package dialog

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/textedit"
	"github.com/keel-dev/keel/ui/theme"
)

// Model holds the questions waiting for the user and shows the first:
// permission requests (allow once / for the session / deny with a reason),
// guard questions (continue / stop / guidance) and plans to approve.
type Model struct {
	pending []*Request
	typing  bool   // entering a deny reason or guidance
	pager   *pager // the question's whole change, shown instead of it (pager.go)
	text    textedit.Model
	keys    keys.DialogKeys
	// guardUntil: keys that reach a question before this were typed for
	// the input, not for it (the user was typing when it opened), and are
	// dropped rather than taken as an answer ("a" allows a call).
	guardUntil time.Time
}

// TypeAheadWindow is how recently the user must have typed into the
// input for a question opening now to ignore keys for TypeAheadGuard.
const (
	TypeAheadWindow = time.Second
	TypeAheadGuard  = 600 * time.Millisecond
)

// opened notes that a question became visible at now; lastTyped is when
// the user last typed a character into the input.
func (d *Model) opened(now, lastTyped time.Time) {
	d.guardUntil = time.Time{}
	if !lastTyped.IsZero() && now.Sub(lastTyped) < TypeAheadWindow {
		d.guardUntil = now.Add(TypeAheadGuard)
	}
}

// TypedAhead reports a key that arrived while the question guards
// against keys typed for the input.
func (d *Model) TypedAhead(now time.Time) bool { return now.Before(d.guardUntil) }

// New is a Model with no question waiting.
func New(km keys.KeyMap) Model {
	return Model{text: textedit.New("> ", 3, false, km.Edit), keys: km.Dialog}
}

// ShownCallID is the tool call the question on screen asks about ("" when
// none does).
func (d *Model) ShownCallID() string {
	if len(d.pending) == 0 {
		return ""
	}
	return d.pending[0].CallID()
}

// Active reports whether a question waits for the user.
func (d *Model) Active() bool { return len(d.pending) > 0 }

// Push queues a question that arrived at now; lastTyped is when the user
// last typed into the input: a question that opens while the user types
// ignores keys for a moment (TypedAhead).
func (d *Model) Push(r *Request, now, lastTyped time.Time) {
	d.pending = append(d.pending, r)
	if len(d.pending) == 1 {
		d.opened(now, lastTyped)
	}
}

// Prune drops questions whose asker stopped waiting (its task ended).
func (d *Model) Prune() {
	kept := d.pending[:0]
	for _, r := range d.pending {
		if !r.withdrawn() {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 || (len(d.pending) > 0 && kept[0] != d.pending[0]) {
		d.stopTyping()
	}
	d.pending = kept
}

// Key handles a key while a dialog is up; it reports a line for the
// transcript describing the decision ("" when none was made).
func (d *Model) Key(msg tea.KeyPressMsg) (string, tea.Cmd) {
	r := d.pending[0]
	switch {
	case d.pager != nil:
		return d.pagerKey(msg)
	case d.typing:
		return d.typingKey(r, msg)
	}
	switch {
	case r.perm != nil:
		return d.permKey(r, msg)
	case r.plan != nil:
		return d.planKey(r, msg)
	}
	return d.guardKey(r, msg)
}

func (d *Model) planKey(r *Request, msg tea.KeyPressMsg) (string, tea.Cmd) {
	switch k := d.keys; {
	case key.Matches(msg, k.Approve):
		return d.reply(r, answer{plan: agent.PlanVerdict{Approve: true}}, "approved the plan"), nil
	case key.Matches(msg, k.Revise):
		return "", d.startTyping("what should change in the plan? Enter sends it to the model")
	case key.Matches(msg, k.CancelTask):
		return d.reply(r, answer{plan: agent.PlanVerdict{Cancel: true}}, "cancelled the task at the plan"), nil
	}
	return "", nil
}

func (d *Model) permKey(r *Request, msg tea.KeyPressMsg) (string, tea.Cmd) {
	switch k := d.keys; {
	case key.Matches(msg, k.Allow):
		return d.reply(r, answer{perm: permReply(true, false, "")}, "allowed "+r.perm.Tool+" once"), nil
	case key.Matches(msg, k.AllowSession):
		return d.reply(r, answer{perm: permReply(true, true, "")}, "allowed for this session: "+r.perm.Grant), nil
	case key.Matches(msg, k.AllowAlways) && r.perm.Always != "":
		return d.reply(r, answer{perm: agent.PermissionReply{Allow: true, ForSession: true, Always: true}}, "allowed always: "+r.perm.Always), nil
	case key.Matches(msg, k.Deny):
		return "", d.startTyping("reason for the model (optional), Enter denies")
	case key.Matches(msg, k.DenyNow):
		return d.reply(r, answer{perm: permReply(false, false, "")}, "denied "+r.perm.Tool), nil
	case key.Matches(msg, k.ViewDiff):
		d.openPager(r)
	}
	return "", nil
}

func (d *Model) guardKey(r *Request, msg tea.KeyPressMsg) (string, tea.Cmd) {
	switch k := d.keys; {
	case key.Matches(msg, k.Continue):
		return d.reply(r, answer{guard: guardReply(true, "")}, "told keel to continue"), nil
	case key.Matches(msg, k.Stop):
		return d.reply(r, answer{guard: guardReply(false, "")}, "told keel to stop"), nil
	case key.Matches(msg, k.Guide):
		return "", d.startTyping("guidance for the model, Enter continues with it")
	}
	return "", nil
}

func (d *Model) typingKey(r *Request, msg tea.KeyPressMsg) (string, tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Back):
		d.stopTyping()
		return "", nil
	case key.Matches(msg, d.keys.Submit):
		text := strings.TrimSpace(d.text.Value())
		if r.plan != nil {
			return d.reply(r, answer{plan: agent.PlanVerdict{Feedback: text}}, "asked for plan changes: "+text), nil
		}
		if r.perm != nil {
			line := "denied " + r.perm.Tool
			if text != "" {
				line += ": " + text
			}
			return d.reply(r, answer{perm: permReply(false, false, text)}, line), nil
		}
		return d.reply(r, answer{guard: guardReply(true, text)}, "continue with guidance: "+text), nil
	}
	d.text.Update(msg)
	return "", nil
}

// Paste passes pasted text to the reason box while typing.
func (d *Model) Paste(msg tea.PasteMsg) {
	if d.typing {
		d.text.Update(msg)
	}
}

func (d *Model) startTyping(placeholder string) tea.Cmd {
	d.typing = true
	d.text.Reset()
	d.text.SetPlaceholder(placeholder)
	return nil
}

func (d *Model) stopTyping() {
	d.typing = false
	d.text.Reset()
}

// reply answers the first question and moves to the next.
func (d *Model) reply(r *Request, a answer, line string) string {
	r.answer(a)
	d.pending = d.pending[1:]
	d.stopTyping()
	d.pager = nil
	return line
}

// View renders the first question as a bordered box width columns wide
// and at most height rows high (the pager fills them).
func (d *Model) View(st theme.Styles, width, height int) string {
	r := d.pending[0]
	inner := max(width-4, 10)
	var lines []string
	switch {
	case d.pager != nil:
		lines = d.pagerLines(st, inner, height)
	case r.perm != nil:
		lines = d.permLines(st, r, inner, height)
	case r.plan != nil:
		lines = d.planLines(st, r.plan, inner)
	default:
		lines = d.guardLines(st, r, inner)
	}
	if n := len(d.pending); n > 1 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("1 of %d pending", n)))
	}
	if d.typing {
		d.text.SetWidth(inner)
		lines = append(lines, d.text.View(st.Dim))
	}
	return st.Dialog.Width(width).Render(strings.Join(lines, "\n"))
}

// permLines is a permission question; an edit's preview gets what of
// height the rest leaves (at most previewLines), the pager the whole.
func (d *Model) permLines(st theme.Styles, r *Request, width, height int) []string {
	p := r.perm
	title := "Allow " + p.Tool + "?"
	if p.Agent != "" {
		title = "Subagent " + p.Agent + " asks: allow " + p.Tool + "?"
	}
	if p.Destructive {
		title += "  (destructive)"
	}
	lines := []string{st.Title.Render(title)}
	body := p.Summary
	if body == "" {
		body = p.Args
	}
	reason, showBody := splitReason(p.Reason, p.Tool, body) // the path or command once
	if reason != "" {
		lines = append(lines, common.Wrap(st.Warn, "why it asks: "+reason, width)...)
	}
	if showBody {
		lines = append(lines, common.Wrap(st.Bold, body, width)...)
	}
	keys := []key.Binding{d.keys.Allow, d.keys.AllowSession, d.keys.Deny}
	if p.Always != "" {
		keys = []key.Binding{d.keys.Allow, d.keys.AllowSession, d.keys.AllowAlways, d.keys.Deny}
	}
	if prev := editPreview(p.Tool, p.Args); prev != "" {
		diff := common.WrappedDiff(st, prev, width)            // long lines wrap: nothing of the change is cut
		room := min(max(height-len(lines)-9, 3), previewLines) // the borders, the keys, the grant, "… more"
		if more := len(diff) - room; more > 0 {
			diff = append(diff[:room:room], st.Dim.Render(fmt.Sprintf("… %d more lines: v shows the whole change", more)))
		}
		lines = append(lines, diff...)
		keys = append(keys, d.keys.ViewDiff)
	}
	if d.typing {
		return lines
	}
	lines = append(lines, "", d.hints(st, width, keys...))
	if p.Grant != "" {
		lines = append(lines, common.Wrap(st.Dim, "s covers: "+grantText(p.Grant, reason, body, showBody), width)...)
	}
	if p.Always != "" {
		lines = append(lines, common.Wrap(st.Dim, "A saves in your config: "+p.Always, width)...)
	}
	return lines
}

func (d *Model) guardLines(st theme.Styles, r *Request, width int) []string {
	in := r.guard
	lines := []string{st.Title.Render("keel stopped a loop — continue?")}
	lines = append(lines, common.Wrap(st.Status, in.Why, width)...)
	if d.typing {
		return lines
	}
	return append(lines, "", d.hints(st, width, d.keys.Continue, d.keys.Stop, d.keys.Guide))
}

// planLines shows a plan for approval before its first side effect.
func (d *Model) planLines(st theme.Styles, p *agent.Plan, width int) []string {
	lines := []string{st.Title.Render("Approve the plan before keel changes anything?")}
	lines = append(lines, common.Wrap(st.Bold, p.Goal, width)...)
	if p.Strategy != "" {
		lines = append(lines, common.Wrap(st.Dim, "strategy: "+p.Strategy, width)...)
	}
	for i, s := range p.Steps {
		lines = append(lines, common.Wrap(st.Status, fmt.Sprintf("%d. %s", i+1, s.Title), width)...)
	}
	if d.typing {
		return lines
	}
	return append(lines, "", d.hints(st, width, d.keys.Approve, d.keys.Revise, d.keys.CancelTask))
}

// hints is the keys under a question, from the bindings' help: one line,
// or more when they do not fit (a key cut off the line could not be
// found).
func (d *Model) hints(st theme.Styles, width int, bs ...key.Binding) string {
	var lines []string
	line, lineW := "", 0
	for _, b := range bs {
		part := st.StatusKey.Render(b.Help().Key) + " " + b.Help().Desc
		w := ansi.StringWidth(part)
		if lineW > 0 && lineW+3+w > width {
			lines, line, lineW = append(lines, line), "", 0
		}
		if lineW > 0 {
			line, lineW = line+"   ", lineW+3
		}
		line, lineW = line+part, lineW+w
	}
	lines = append(lines, line)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

// editPreview is a diff-like preview of an edit or a write, from its
// arguments, so the user sees what will change before allowing it. The
// decoded strings are sanitised: JSON escapes such as \u001b decode to
// the control characters themselves.
func editPreview(tool, args string) string {
	var a struct {
		Old     *string `json:"old_string"`
		New     *string `json:"new_string"`
		Content *string `json:"content"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return ""
	}
	var b strings.Builder
	prefix := func(text, mark string) {
		for _, l := range strings.Split(strings.TrimRight(common.Clean(text), "\n"), "\n") {
			b.WriteString(mark + l + "\n")
		}
	}
	switch {
	case a.Old != nil && a.New != nil:
		prefix(*a.Old, "-")
		prefix(*a.New, "+")
	case a.Content != nil:
		prefix(*a.Content, "+")
	}
	return b.String()
}
