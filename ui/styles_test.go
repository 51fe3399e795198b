package ui

import (
	"regexp"
	"testing"
)

// colourSGR matches SGR colour parameters (30–37, 38;…, 40–47, 48;…, 90–97).
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(?:3[0-8]|4[0-8]|9[0-7])[;m]`)

func TestNoColorDrawsNoColours(t *testing.T) {
	for name, build := range scenarios {
		if build == nil {
			continue
		}
		opts := scenarioOptions[name]
		opts.NoColor = true
		m := newTestModelWith(t, 160, 48, opts)
		build(t, m)
		if loc := colourSGR.FindStringIndex(m.View().Content); loc != nil {
			got := m.View().Content
			t.Errorf("%s: colour escape under NO_COLOR at %d: %q", name, loc[0], got[max(loc[0]-20, 0):min(loc[1]+20, len(got))])
		}
	}
}

func TestLightBackgroundSwitchesStyles(t *testing.T) {
	m := New(Options{Width: 80, Height: 24})
	m.setDark(false)
	if m.st.Dark || m.st.GlamourStyle() != "light" {
		t.Fatal("a light background should switch to light styles")
	}
	dark := true
	m = New(Options{Width: 80, Height: 24, Dark: &dark})
	m.setDark(false)
	if !m.st.Dark {
		t.Fatal("an explicit Options.Dark wins over the detected background")
	}
}
