// Package theme holds the one Styles value every ui package draws with,
// built once for the terminal's background (light or dark) and NO_COLOR.
// Children receive it from the root model and never build their own.
package theme

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles is every style the UI draws with, built once for a background
// (light or dark) and NO_COLOR; children receive it and never build their own.
type Styles struct {
	Dark    bool
	NoColor bool

	User      lipgloss.Style // the "›" before a user prompt and its text
	Queued    lipgloss.Style
	Dim       lipgloss.Style
	Bold      lipgloss.Style
	Accent    lipgloss.Style
	OK        lipgloss.Style
	Fail      lipgloss.Style
	Warn      lipgloss.Style
	Selected  lipgloss.Style // gutter marker of the selected entry
	DiffAdd   lipgloss.Style
	DiffDel   lipgloss.Style
	DiffHunk  lipgloss.Style
	ErrorCard lipgloss.Style
	Card      lipgloss.Style // checkpoint cards (bordered)
	CardHalt  lipgloss.Style
	Panel     lipgloss.Style // plan panel (bordered left)
	Dialog    lipgloss.Style
	Status    lipgloss.Style
	StatusKey lipgloss.Style
	Title     lipgloss.Style
	Chip      lipgloss.Style // an @file mention in the input and the transcript
	Help      help.Styles
}

// New builds the styles for a dark or light background; with noColor
// only attributes (bold, faint, reverse) are used, as NO_COLOR asks.
func New(dark, noColor bool) Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkC string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkC))
	}
	base := lipgloss.NewStyle()
	s := Styles{
		Dark:      dark,
		NoColor:   noColor,
		User:      base.Foreground(c("#1d4ed8", "#93c5fd")).Bold(true),
		Queued:    base.Foreground(c("#6b7280", "#9ca3af")).Italic(true),
		Dim:       base.Foreground(c("#6b7280", "#8b8b8b")).Faint(noColor),
		Bold:      base.Bold(true),
		Accent:    base.Foreground(c("#7c3aed", "#c4b5fd")),
		OK:        base.Foreground(c("#15803d", "#86efac")),
		Fail:      base.Foreground(c("#b91c1c", "#fca5a5")).Bold(true),
		Warn:      base.Foreground(c("#a16207", "#fde68a")),
		Selected:  base.Foreground(c("#7c3aed", "#c4b5fd")).Bold(true),
		DiffAdd:   base.Foreground(c("#15803d", "#86efac")),
		DiffDel:   base.Foreground(c("#b91c1c", "#fca5a5")),
		DiffHunk:  base.Foreground(c("#0e7490", "#67e8f9")),
		ErrorCard: base.Foreground(c("#b91c1c", "#fca5a5")),
		Card: base.Border(lipgloss.RoundedBorder()).BorderForeground(c("#a16207", "#fde68a")).
			Padding(0, 1),
		CardHalt: base.Border(lipgloss.ThickBorder()).BorderForeground(c("#b91c1c", "#fca5a5")).
			Padding(0, 1),
		Panel: base.Border(lipgloss.NormalBorder(), false, false, false, true).
			BorderForeground(c("#9ca3af", "#4b5563")).PaddingLeft(1),
		Dialog: base.Border(lipgloss.DoubleBorder()).BorderForeground(c("#7c3aed", "#c4b5fd")).
			Padding(0, 1),
		Status:    base.Foreground(c("#374151", "#d1d5db")),
		StatusKey: base.Foreground(c("#7c3aed", "#c4b5fd")).Bold(true),
		Title:     base.Bold(true).Foreground(c("#111827", "#f9fafb")),
		Chip:      base.Foreground(c("#5b21b6", "#ddd6fe")).Background(c("#ede9fe", "#3b0764")),
		Help:      help.DefaultStyles(dark),
	}
	if noColor {
		s.Help = help.Styles{ShortKey: base.Bold(true), FullKey: base.Bold(true)}
		s.Selected = base.Reverse(true)
		s.Fail = base.Bold(true)
		s.Chip = base.Underline(true)
	}
	return s
}

// GlamourStyle is the built-in glamour style for the background; built-in
// names are compiled in, so making a renderer reads no file.
func (s Styles) GlamourStyle() string {
	switch {
	case s.NoColor:
		return "notty"
	case s.Dark:
		return "dark"
	default:
		return "light"
	}
}
