package editor

import (
	"slices"
	"testing"
)

var fuzzyFiles = []string{
	"README.md",
	"agent/model_options.go",
	"cmd/keel/main.go",
	"cmd/keel/tmux_e2e_test.go",
	"docs/ARCHITECTURE.md",
	"docs/MODELS.md",
	"tools/mention.go",
	"ui/modal.go",
	"ui/model.go",
	"ui/model_test.go",
	"ui/transcript_live.go",
}

func TestRankFiles(t *testing.T) {
	tests := []struct {
		query string
		want  []string // the first results, in order
	}{
		{"model.go", []string{"ui/model.go"}},
		{"model", []string{"ui/model.go", "docs/MODELS.md", "ui/model_test.go"}},
		{"mtest", []string{"ui/model_test.go"}},
		{"uimod", []string{"ui/modal.go", "ui/model.go"}},
		{"kmain", []string{"cmd/keel/main.go"}},
		{"tl", []string{"ui/transcript_live.go"}},
		{"arch", []string{"docs/ARCHITECTURE.md"}},
		{"READ", []string{"README.md"}},
		{"mention", []string{"tools/mention.go"}},
		{"", []string{"README.md"}}, // shallowest first
		{"xyz", nil},
		{"ledom", nil}, // in order only
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			got := rankFiles(tc.query, fuzzyFiles, 20)
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %q, want no match", got)
				}
				return
			}
			if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
				t.Fatalf("rank(%q) = %q, want it to start with %q", tc.query, got, tc.want)
			}
		})
	}
}

func TestRankFilesCaps(t *testing.T) {
	if got := rankFiles("o", fuzzyFiles, 3); len(got) != 3 {
		t.Fatalf("got %d, want 3", len(got))
	}
}
