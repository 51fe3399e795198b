package ui

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{300 * time.Microsecond, "<1ms"},
		{time.Millisecond, "1ms"},
		{999 * time.Millisecond, "999ms"},
		{1400 * time.Millisecond, "1.4s"},
		{125 * time.Second, "2m05s"},
	} {
		if got := formatDuration(tc.d); got != tc.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
