package lipgloss

import (
	"bytes"
	"sync"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// keel's patch: the default Writer's profile is detected on the first
// Print, from the environment of that moment, and a Writer the program
// assigns is used as it is.
func TestKeelWriterDetectsOnFirstPrint(t *testing.T) {
	Writer.Profile, detectDefault = colorprofile.Unknown, sync.Once{}
	t.Setenv("TTY_FORCE", "1")
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("NO_COLOR", "1")
	t.Setenv("TMUX", "")
	if _, err := Print(""); err != nil {
		t.Fatal(err)
	}
	if Writer.Profile != colorprofile.Ascii {
		t.Errorf("after the first Print with NO_COLOR the profile is %v, want Ascii", Writer.Profile)
	}
	t.Setenv("NO_COLOR", "")
	_, _ = Print("")
	if Writer.Profile != colorprofile.Ascii {
		t.Errorf("the profile was detected again: %v", Writer.Profile)
	}
}

func TestKeelAssignedWriterIsUsedAsItIs(t *testing.T) {
	saved := Writer
	defer func() { Writer = saved }()
	var buf bytes.Buffer
	Writer = &colorprofile.Writer{Forward: &buf, Profile: colorprofile.NoTTY}
	_, _ = Print(NewStyle().Bold(true).Render("x"))
	if buf.String() != "x" {
		t.Errorf("an assigned NoTTY writer printed %q, want the plain text", buf.String())
	}
	if Writer.Profile != colorprofile.NoTTY {
		t.Errorf("the assigned writer's profile changed to %v", Writer.Profile)
	}
}

// Sprint downsamples with the default Writer's profile: detected first,
// not the zero profile (which would strip every colour).
func TestKeelSprintDetectsFirst(t *testing.T) {
	Writer.Profile, detectDefault = colorprofile.Unknown, sync.Once{}
	t.Setenv("TTY_FORCE", "1")
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("COLORTERM", "truecolor")
	t.Setenv("NO_COLOR", "")
	red := NewStyle().Foreground(Color("#ff0000")).Render("x")
	if got := Sprint(red); got != red {
		t.Errorf("Sprint on a true-colour terminal = %q, want %q", got, red)
	}
}

// A profile the program sets on the default Writer before printing stays.
func TestKeelProfileSetByTheProgramStays(t *testing.T) {
	Writer.Profile, detectDefault = colorprofile.ANSI, sync.Once{}
	defer func() { Writer.Profile = colorprofile.Unknown }()
	t.Setenv("TTY_FORCE", "1")
	t.Setenv("NO_COLOR", "1")
	_, _ = Print("")
	if Writer.Profile != colorprofile.ANSI {
		t.Errorf("the program's ANSI profile became %v at the first Print", Writer.Profile)
	}
}
