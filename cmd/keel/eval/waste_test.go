package eval_test

import (
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
)

func read(path, out string) eval.Call {
	return eval.Call{Name: "read_file", Args: `{"path":"` + path + `"}`, Output: out}
}

func readRange(path string, offset, limit int, out string) eval.Call {
	c := read(path, out)
	c.Args = `{"path":"` + path + `","offset":` + itoa(offset) + `,"limit":` + itoa(limit) + `}`
	return c
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func cmd(command, out string, failed bool) eval.Call {
	return eval.Call{Name: "run_command", Args: `{"command":"` + command + `"}`, Output: out, Failed: failed}
}

const (
	ab     = "     1\ta\n     2\tb\n(all 2 lines)"
	abEdit = "     1\ta\n     2\tB\n(all 2 lines)"
	onlyB  = "     2\tb\n(lines 2-2 of 2)"
)

func TestClassifyWaste(t *testing.T) {
	tests := []struct {
		name  string
		calls []eval.Call
		want  eval.Waste
	}{
		{"first read is not waste", []eval.Call{read("a.go", ab)}, eval.Waste{}},
		{"same read again is a reread", []eval.Call{read("a.go", ab), read("a.go", ab), read("a.go", ab)}, eval.Waste{Rereads: 2}},
		{"relative, ./ and absolute paths are one file", []eval.Call{read("a.go", ab), read("./a.go", ab), read("/w/a.go", ab)}, eval.Waste{Rereads: 2}},
		{"narrowing to lines already returned is a reread", []eval.Call{read("a.go", ab), readRange("a.go", 2, 1, onlyB)}, eval.Waste{Rereads: 1}},
		{"reading after the file changed is new", []eval.Call{read("a.go", ab), read("a.go", abEdit)}, eval.Waste{}},
		{"another file is new", []eval.Call{read("a.go", ab), read("b.go", ab)}, eval.Waste{}},
		{"failed calls count as failed, first", []eval.Call{cmd("go test", "FAIL", true), cmd("go test", "FAIL", true)}, eval.Waste{Failed: 2}},
		{"same command, same output is a repeat", []eval.Call{cmd("ls", "a.go", false), cmd("ls", "a.go", false)}, eval.Waste{Repeats: 1}},
		{"durations and (cached) are masked", []eval.Call{
			cmd("go test ./...", "ok  x\t0.012s\n[exit code 0, 0.4s]", false),
			cmd("go test ./...", "ok  x\t(cached)\n[exit code 0, 1.2s]", false),
		}, eval.Waste{Repeats: 1}},
		{"same command, new output is new", []eval.Call{cmd("ls", "a.go", false), cmd("ls", "a.go b.go", false)}, eval.Waste{}},
		{"argument order does not matter", []eval.Call{
			{Name: "grep", Args: `{"pattern":"x","path":"."}`, Output: "a:1:x"},
			{Name: "grep", Args: `{"path":".","pattern":"x"}`, Output: "a:1:x"},
		}, eval.Waste{Repeats: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := eval.ClassifyWaste("/w", tt.calls)
			if got != tt.want {
				t.Errorf("ClassifyWaste = %+v, want %+v", got, tt.want)
			}
			if got.Total() != tt.want.Failed+tt.want.Rereads+tt.want.Repeats {
				t.Errorf("Total = %d", got.Total())
			}
		})
	}
}
