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
		{"nl -ba main.go", "main.go", 1, 0, true},
		{"awk 'NR>=10 && NR<=20' main.go", "main.go", 10, 20, true},
		{"awk 'NR >= 10 && NR <= 20 {print}' main.go", "main.go", 10, 20, true},
		{`awk 'NR>=10&&NR<=20{ print NR": "$0 }' main.go`, "main.go", 10, 20, true},
		{"awk 'NR>9 && NR<21' main.go", "main.go", 10, 20, true},
		{"awk 'NR==7' main.go", "main.go", 7, 7, true},
		{"awk 'NR>=30' main.go", "main.go", 30, 0, true},
		{"awk 'NR<=5' main.go", "main.go", 1, 5, true},
		{"awk 'NR==3,NR==8' main.go", "main.go", 3, 8, true},
		{"head -n 30 main.go | tail -n 10", "main.go", 21, 30, true},
		{"cat main.go | head -n 5", "main.go", 1, 5, true},
		{"cat -n main.go | sed -n '10,20p'", "main.go", 10, 20, true},
		{"sed -n '10,40p' main.go | head -n 5", "main.go", 10, 14, true},
		{"cat main.go | tail -n 5", "main.go", -5, 0, true},
		{"tail -n +10 main.go | head -n 5", "main.go", 10, 14, true},
		{"sed -n '10,+5p' main.go", "main.go", 10, 15, true},
		{"sed -n '10,20p;20q' main.go", "main.go", 10, 20, true},
		{"sed -n '10,40p;20q' main.go", "main.go", 10, 20, true},
		{"sed -n '10,20 p' main.go", "main.go", 10, 20, true},
		{"sed '10,20!d' main.go", "main.go", 10, 20, true},
		{"sed 15q main.go", "main.go", 1, 15, true},
		{"awk '{if (NR>=10 && NR<=20) print}' main.go", "main.go", 10, 20, true},
		{"awk '{ if (NR > 9 && NR < 21) { print $0 } }' main.go", "main.go", 10, 20, true},
		{"cd pkg && sed -n '10,20p' main.go", "pkg/main.go", 10, 20, true},
		{"cd pkg && cd sub && cat main.go", "pkg/sub/main.go", 1, 0, true},
		{"cd pkg && cat /abs/main.go", "/abs/main.go", 1, 0, true},
		{"cat main.go 2>/dev/null", "main.go", 1, 0, true},
		{"sed -n '10,20p' < main.go", "main.go", 10, 20, true},
		{"head -n 30 < main.go | tail -n 10", "main.go", 21, 30, true},
		// not a read of one region
		{"awk '{if (NR>=10) print $2}' main.go", "", 0, 0, false},
		{"awk '{if (NR>=10) {print; system(\"rm x\")}}' main.go", "", 0, 0, false},
		{"sed '10,20d' main.go", "", 0, 0, false},
		{"sed -n '10,20p;5q' main.go", "", 0, 0, false},
		{"sed -i '10,20!d' main.go", "", 0, 0, false},
		{"cd pkg; cat main.go", "", 0, 0, false},
		{"cd pkg && make && cat main.go", "", 0, 0, false},
		{"cd && cat main.go", "", 0, 0, false},
		{"cat main.go 2> err.txt", "", 0, 0, false},
		{"sort < main.go", "", 0, 0, false},
		{"tail -n 50 main.go | head -n 10", "", 0, 0, false},
		{"awk '{print $2}' main.go", "", 0, 0, false},
		{"awk 'NR>=10 {system(\"rm x\")}' main.go", "", 0, 0, false},
		{"awk '/func/' main.go", "", 0, 0, false},
		{"awk -F: 'NR==1' main.go", "", 0, 0, false},
		{"awk 'NR>=20 && NR<=10' main.go", "", 0, 0, false},
		{"head -n 5 | cat", "", 0, 0, false},
		{"cat main.go || true", "", 0, 0, false},
		{"cat main.go | sort", "", 0, 0, false},
		{"sed -n '1,5p'", "", 0, 0, false},
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

func FuzzCommandRead(f *testing.F) {
	for _, s := range []string{"cat a", "head -n 30 a | tail -n 10", "awk 'NR>=1 && NR<=2' a", "sed -n '1,$p' a | head -3", "tail -n +4 a | awk 'NR==2'", "cat a | | b",
		"cd d && sed -n '2,+3p;4q' a", "awk '{if (NR>1) print}' < a 2>&1", "sed '2,3!d' a", "cd d && cd /e && head < a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		path, from, to, ok := CommandRead(cmd)
		if !ok {
			return
		}
		valid := path != "" && ((from >= 1 && (to == 0 || to >= from)) || (from < 0 && to == 0))
		if !valid {
			t.Fatalf("CommandRead(%q) = %q, %d, %d: not a region", cmd, path, from, to)
		}
	})
}
