package headless

import (
	"testing"
	"time"
)

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0ms", 400 * time.Microsecond: "<1ms", 7 * time.Millisecond: "7ms",
		1200 * time.Millisecond: "1.2s", 123 * time.Second: "2m3s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
