package discipline

import "testing"

func TestCommandRead(t *testing.T) {
	tests := []struct {
		cmd      string
		path     string
		from, to int
		ok       bool
	}{
		{"cat main.go", "main.go", 1, 0, true},
		{"cat -n 'dir with space/main.go'", "dir with space/main.go", 1, 0, true},
		{"less /abs/x.go", "/abs/x.go", 1, 0, true},
		{"head main.go", "main.go", 1, 10, true},
		{"head -n 50 main.go", "main.go", 1, 50, true},
		{"head -n50 main.go", "main.go", 1, 50, true},
		{"head -50 main.go", "main.go", 1, 50, true},
		{"head --lines=7 main.go", "main.go", 1, 7, true},
		{"tail main.go", "main.go", -10, 0, true},
		{"tail -n 20 main.go", "main.go", -20, 0, true},
		{"tail -n +100 main.go", "main.go", 100, 0, true},
		{"sed -n '10,20p' main.go", "main.go", 10, 20, true},
		{"sed -n 5p main.go", "main.go", 5, 5, true},
		{`sed -n "10,$p" main.go`, "main.go", 10, 0, true},
		{"sed -ne '3,4p' main.go", "main.go", 3, 4, true},
		{"sed -n -e 3,4p main.go", "main.go", 3, 4, true},
		// not a read of one region
		{"cat a.go b.go", "", 0, 0, false},
		{"cat main.go | grep foo", "", 0, 0, false},
		{"cat main.go > copy.go", "", 0, 0, false},
		{"cat main.go && echo ok", "", 0, 0, false},
		{"cat *.go", "", 0, 0, false},
		{"cat $(ls)", "", 0, 0, false},
		{"cat", "", 0, 0, false},
		{"head -c 100 main.go", "", 0, 0, false},
		{"tail -f log.txt", "", 0, 0, false},
		{"sed 's/a/b/' main.go", "", 0, 0, false},
		{"sed -n '/func/p' main.go", "", 0, 0, false},
		{"sed -i -n '1,2p' main.go", "", 0, 0, false},
		{"sed -n '20,10p' main.go", "", 0, 0, false},
		{"ls main.go", "", 0, 0, false},
		{"go test ./...", "", 0, 0, false},
		{"cat 'unterminated", "", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			path, from, to, ok := CommandRead(tt.cmd)
			if path != tt.path || from != tt.from || to != tt.to || ok != tt.ok {
				t.Errorf("CommandRead(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", tt.cmd, path, from, to, ok, tt.path, tt.from, tt.to, tt.ok)
			}
		})
	}
}

func TestReadResolve(t *testing.T) {
	tests := []struct {
		r        Read
		from, to int
		ok       bool
	}{
		{Read{Path: "a", From: 1, To: 0, Total: 40}, 1, 40, true},
		{Read{Path: "a", From: -10, To: 0, Total: 40}, 31, 40, true},
		{Read{Path: "a", From: -100, To: 0, Total: 40}, 1, 40, true},
		{Read{Path: "a", From: 5, To: 500, Total: 40}, 5, 40, true},
		{Read{Path: "a", From: 1, To: 0, Total: 0}, 1, 0, false},
		{Read{From: 1, To: 10, Total: 10}, 1, 10, false},
		{Read{Path: "a", From: 20, To: 10, Total: 40}, 20, 10, false},
	}
	for _, tt := range tests {
		from, to, ok := tt.r.resolve()
		if from != tt.from || to != tt.to || ok != tt.ok {
			t.Errorf("%+v.resolve() = %d, %d, %v; want %d, %d, %v", tt.r, from, to, ok, tt.from, tt.to, tt.ok)
		}
	}
}
