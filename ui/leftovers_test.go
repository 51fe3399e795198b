package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// The permission question for an edit names the file once, at 80×24 and
// 120×40 (issue 32 leftovers: the policy's reason "edit_file changes
// main.go" stood over the path main.go).
func TestPermissionQuestionNamesThePathOnce(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			prompt(m, "print one")
			askPending(t, m, agent.PermissionRequest{CallID: "e1", Tool: "edit_file", Summary: "main.go",
				Args:   `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`,
				Reason: "edit_file changes main.go", Grant: "edit_file: all edits this session"})
			got := plain(m)
			box := got[strings.Index(got, "Allow edit_file?"):]
			if n := strings.Count(box, "main.go"); n != 1 {
				t.Fatalf("the question names main.go %d times, want once:\n%s", n, got)
			}
			golden(t, m, fmt.Sprintf("permission_edit_%dx%d", sz[0], sz[1]))
		})
	}
}
