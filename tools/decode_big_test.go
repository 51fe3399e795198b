package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// Arguments past bigArgs are decoded as strictly as small ones: an
// unknown field or a wrong type is refused, and the content arrives whole.
func TestDecodeBigArgs(t *testing.T) {
	content := strings.Repeat("line \"q\" \\ é\n", 8<<10)
	good, _ := json.Marshal(map[string]string{"path": "a.go", "content": content})
	unknown, _ := json.Marshal(map[string]string{"path": "a.go", "content": content, "contnet": "x"})
	wrongType := `{"path":"a.go","content":7,"x":"` + strings.Repeat("y", bigArgs) + `"}`
	var p writeFileParams
	if err := decodeArgs(good, &p); err != nil || p.Content != content || p.Path != "a.go" {
		t.Fatalf("good arguments: %v (content whole: %v)", err, p.Content == content)
	}
	for name, args := range map[string][]byte{"unknown field": unknown, "wrong type": []byte(wrongType)} {
		if err := decodeArgs(args, &writeFileParams{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
