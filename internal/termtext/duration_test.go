package termtext

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{300 * time.Microsecond, "<1ms"},
		{400 * time.Microsecond, "<1ms"},
		{time.Millisecond, "1ms"},
		{7 * time.Millisecond, "7ms"},
		{999 * time.Millisecond, "999ms"},
		{1200 * time.Millisecond, "1.2s"},
		{1400 * time.Millisecond, "1.4s"},
		{123 * time.Second, "2m03s"},
		{125 * time.Second, "2m05s"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
