package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// calls is the calls of src as their words joined, "via" prefixed.
func calls(t *testing.T, src string) (*Script, []string) {
	t.Helper()
	s, err := Analyse(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var out []string
	for _, c := range s.Calls {
		w := strings.Join(c.Values(), " ")
		if len(c.Via) > 0 {
			w = strings.Join(c.Via, ">") + ": " + w
		}
		out = append(out, w)
	}
	return s, out
}

func TestAnalyseCalls(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"ls", []string{"ls"}},
		{"ls && rm -rf x; a || b | c |& d & e", []string{"ls", "rm -rf x", "a", "b", "c", "d", "e"}},
		{`echo "a; b && c" 'x | y' a\;b`, []string{"echo a; b && c x | y a;b"}},
		{"echo $(rm -rf /) \"${x:-$(ls)}\"", []string{"rm -rf /", "ls", "echo $(rm -rf /) ${x:-$(ls)}"}},
		{"FOO=1 go test ./...", []string{"go test ./..."}},
		{"bash -c 'ls && rm -rf x'", []string{"bash -c: ls", "bash -c: rm -rf x"}},
		{"timeout 5 nice -n 3 env CI=1 go test", []string{"timeout>nice>env: go test"}},
		{"sudo -u bob rm x", []string{"sudo -u bob rm x", "sudo: rm x"}},
		{"xargs -0 -n1 grep foo", []string{"xargs: grep foo"}},
		{"find . -name '*.go' -exec grep -l x {} + -o -execdir rm {} \\;", []string{"find -exec: grep -l x {}", "find -execdir: rm {}", "find . -name *.go -exec grep -l x {} + -o -execdir rm {} ;"}},
		{"if true; then rm x; fi; for f in a b; do cat $f; done", []string{"true", "rm x", "cat a b"}},
		{"{ ls; pwd; } > out; (cd x && make)", []string{"ls", "pwd", "cd x", "make"}},
		{"echo {a,b}{1,2}", []string{"echo a1 a2 b1 b2"}},
		{"echo $'\\x41\\t\\'q' $\"x\"", []string{"echo A\t'q x"}},
		{"cat <<EOF\nrm -rf /\nEOF\nls", []string{"cat", "ls"}},
		{"ls # && rm -rf x", []string{"ls"}},
		{"eval 'rm -rf x'", []string{"eval: rm -rf x", "eval rm -rf x"}},
		{"exec go test", []string{"exec: go test", "exec go test"}},
		{"command -v go", []string{"command -v go"}},
		{"/usr/bin/git -C sub push", []string{"git -C sub push"}},
	}
	for _, tc := range tests {
		_, got := calls(t, tc.src)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

func TestAnalyseProblems(t *testing.T) {
	tests := []struct {
		src    string
		what   string // "" for none
		opaque bool
	}{
		{"ls -la | grep x", "", false},
		{"echo $HOME \"$USER\" ${PWD}", "", false},
		{"cat <<'EOF'\n$(rm x)\nEOF", "", false},
		{"cat <<EOF\n$HOME\nEOF", "", false},
		{"echo $(date)", "command substitution", false},
		{"echo `date`", "command substitution", false},
		{"diff <(ls a) <(ls b)", "process substitution", false},
		{"echo $((1+2))", "arithmetic", true},
		{"((x++))", "arithmetic", true},
		{"let x=1", "let", true},
		{"echo ${x:-y}", "parameter expansion", false},
		{"echo ${a[0]}", "parameter expansion", true},
		{"echo ${x:1:2}", "parameter expansion", true},
		{"echo ${x@P}", "parameter expansion", true},
		{"cat <<EOF\n$(rm x)\nEOF", "command substitution", false},
		{"f() { ls; }", "function", false},
		{"eval \"$x\"", "eval", true},
		{"eval ls", "eval", false},
		{"source ./env.sh", "source", false},
		{"source \"$f\"", "source", true},
		{"trap 'rm x' EXIT", "trap", false},
		{"shopt -s extglob", "shopt", true},
		{"alias ls=rm", "alias", true},
		{"$cmd -rf x", "program to run", true},
		{"sh", "standard input", true},
		{"bash -s", "standard input", true},
		{"echo ls | bash", "standard input", true},
		{"python3", "standard input", false},
		{"python3 -c 'print(1)'", "", false},
		{"zsh -c ls", "zsh", true},
		{"bash -O extglob -c ls", "option", true},
		{"bash -c \"$x\"", "cannot", true},
		{"env -S 'ls -l'", "-S", true},
		{"PATH=/tmp ls", "PATH", true},
		{"GIT_DIR=/x git status", "GIT_DIR", false},
		{"export GOFLAGS=-x", "GOFLAGS", false},
		{"x=1; y=$x", "", false},
		{"declare -n r=x", "declare -n", true},
		{"declare -i n=1", "declare -i", true},
		{"set -euo pipefail", "", false},
		{"set -a", "set -a", true},
		{"set -o allexport", "allexport", true},
		{"[[ $x == y ]]", "", false},
		{"[[ $x -eq 1 ]]", "arithmetic comparison", true},
		{"[[ 2 -eq 1 ]]", "", false},
		{"[[ -v 'a[$(rm x)]' ]]", "-v", true},
		{"echo > /dev/tcp/h/80", "network", false},
		{"coproc ls", "coproc", false},
		{"echo ${x:-a<(touch m)}", "operator", true},
		{"echo ${x:-'$(trap 'cat <(touch m)' EXIT)'}", "operator", true},
		{"echo ${x:-default}", "operator", false},
		{"coproc bash <<< 'touch p'", "reads differently", true},
		{"coproc sh -c 'touch p'", "coproc", false},
		{"coproc n { ls; }", "coproc", false},
		{"for ((i=0;i<3;i++)); do :; done", "C-style", true},
		{"echo @(a|b)", "extended glob", false},
		{"echo `echo \\`date\\``", "command substitution", false},
	}
	for _, tc := range tests {
		s, err := Analyse(tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		var all []string
		for _, p := range s.Problems {
			all = append(all, p.String())
		}
		switch {
		case tc.what == "" && len(s.Problems) > 0:
			t.Errorf("%q: unexpected problems %q", tc.src, all)
		case tc.what != "" && !strings.Contains(strings.Join(all, "\n"), tc.what):
			t.Errorf("%q: problems %q lack %q", tc.src, all, tc.what)
		}
		if _, opaque := s.Opaque(); tc.what != "" && opaque != tc.opaque {
			t.Errorf("%q: opaque = %v, want %v (%q)", tc.src, opaque, tc.opaque, all)
		}
	}
}

func TestParseErrorsAreSentences(t *testing.T) {
	for _, src := range []string{`echo "x`, "echo 'x", "(ls", "ls)", "echo $(ls", "echo `ls", "if true; then", "a\x00b"} {
		_, err := Analyse(src)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v", src, err)
		}
	}
}

func TestWritesAndDirs(t *testing.T) {
	tests := []struct {
		src  string
		want []string // op target @dirs, "" being the start directory
	}{
		{"echo x > out.txt", []string{"> out.txt @"}},
		{"echo x >> /tmp/log 2>&1", []string{">> /tmp/log @"}},
		{"make 2>&1 | tee log", nil},
		{"cmd 2> err.txt &> all.txt", []string{"> err.txt @", "&> all.txt @"}},
		{"cmd < in.txt <<< x", nil},
		{"echo x >& file", []string{">& file @"}},
		{"echo x >&2 1>&-", nil},
		{"echo x 3<> f", []string{"<> f @"}},
		{"echo x >| f", []string{">| f @"}},
		{"cd src && echo x > f", []string{"> f @,src"}},
		{"cd a; cd ../b; echo > f", []string{"> f @,a,../b,b"}}, // cd a may fail
		{"(cd sub; echo > f); echo > g", []string{"> f @,sub", "> g @"}},
		{"cd $d; echo > f", []string{"> f @,?"}},
		{"for i in 1 2; do cd x; echo > f; done", []string{"> f @,?,x"}},
		{"cd; echo > f", []string{"> f @,~"}},
		{"pushd /tmp; popd; echo > f", []string{"> f @,/tmp"}},
	}
	for _, tc := range tests {
		s, err := Analyse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range s.Writes {
			got = append(got, w.Op+" "+w.Target.Value+" @"+strings.ReplaceAll(strings.Join(w.Dirs, ","), UnknownDir, "?"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

func TestLoopVariablesTakeTheirItems(t *testing.T) {
	_, got := calls(t, `for f in a.txt "b c" src/*.go; do wc -l "$f"; done`)
	if !slices.Equal(got, []string{"wc -l a.txt b c src/*.go"}) {
		t.Errorf("got %q", got)
	}
	s, _ := calls(t, `for f in a; do f=-rf; rm $f; done`)
	if s.Calls[0].Args[1].Known() {
		t.Error("a loop variable assigned in the body was taken for its items")
	}
}

func TestANSIC(t *testing.T) {
	for in, want := range map[string]string{
		`a\nb`: "a\nb", `\x41\x4a`: "AJ", `\101`: "A", `\u00e9`: "é", `\'`: "'", `\e[0m`: "\x1b[0m",
		`\cA`: "\x01", `\q`: `\q`, `\x`: `\x`, `plain`: "plain",
	} {
		if got := ansiC(in); got != want {
			t.Errorf("ansiC(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSedSafe(t *testing.T) {
	safe := []string{"10,20p", "p", "$p", "1~2p", "/^func/,/^}/p", `/a\/b/p`, "s/a/b/g", "s|/|x|gp", "s/[/]/x/", "1d;$d",
		"=", "20q", "y/abc/xyz/", ":a;N;$!ba;s/\\n/ /g", "/x/I!d", `\%x%p`, "s/a/b/2", "{p}", "n;p"}
	unsafe := []string{"w out", "1w out", "s/a/b/w out", "s/a/b/e", "e ls", "r /etc/passwd", "R f", "W f", "s/[/]/x/w f",
		"1e touch p", "s/a/b", "a text", "i\\", "c x", "v", "s/a/b/gw f", "/x/{w f\n}", "F;w f"}
	for _, s := range safe {
		if !sedSafe(s) {
			t.Errorf("sedSafe(%q) = false", s)
		}
	}
	for _, s := range unsafe {
		if sedSafe(s) {
			t.Errorf("sedSafe(%q) = true", s)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		src         string
		ro          bool
		blocker     string
		destructive string
		canonical   string
	}{
		{"ls -la src", true, "", "", "ls -la src"},
		{"grep -rn /api/ .", true, "", "", ""},
		{"rg --pre x foo", false, "run another program", "", ""},
		{"rg --pre=x foo", false, "run another program", "", ""},
		{"git -C sub --no-pager log -5", true, "", "", "git log -5"},
		{"git -c a=b status", false, "git -c", "", ""},
		{"git branch", true, "", "", ""},
		{"git branch new", false, "", "", ""},
		{"git branch -D old", false, "", "git branch -D", ""},
		{"git tag -l 'v*'", true, "", "", ""},
		{"git stash list", true, "", "", ""},
		{"git config --get user.name", true, "", "", ""},
		{"git config user.name x", false, "", "", ""},
		{"git log --show-signature", false, "run another program", "", ""},
		{"git push --forc", false, "", "git push --force", ""},
		{"git checkout -- .", false, "", "git checkout", ""},
		{"git clean -n", false, "", "", ""},
		{"git clean -fdx", false, "", "git clean", ""},
		{"/bin/ls", true, "", "", "ls"},
		{"./ls", false, "", "", "./ls"},
		{"/tmp/ls", false, "", "", "/tmp/ls"},
		{"go version", true, "", "", ""},
		{"go env -w GOFLAGS=x", false, "go env -w", "", ""},
		{"go test -test.coverprofile=x ./...", false, "", "", ""},
		{"go vet -vettool=/x ./...", false, "runs another program", "", ""},
		{"find . -newer go.mod -print", true, "", "", ""},
		{"find . -fls out", false, "", "", ""},
		{"find . $x", false, "cannot see", "", ""},
		{"cat $f", true, "", "", ""},
		{"sort $f", false, "cannot see", "", ""},
		{"head -n 5 a b", true, "", "", ""},
		{"uniq a b", false, "", "", ""},
		{"date -s now", false, "", "", ""},
		{"hostname newname", false, "", "", ""},
		{"test -v 'a[1]'", false, "test -v", "", ""},
		{"rm x", false, "", "", ""},
		{"rm -- -rf", false, "", "", ""},
		{"rm *", false, "", "may be -rf", ""},
		{"rm ./*", false, "", "", ""},
		{"chmod -R 755 .", false, "", "chmod -R", ""},
		{"make SHELL=/x test", false, "SHELL", "", ""},
		{"make --eval='x:' test", false, "makefile", "", ""},
		{"make -j4 test", false, "", "", ""},
		{"cargo test --config x", false, "cargo --config", "", ""},
		{"npm test --script-shell=/x", false, "script-shell", "", ""},
		{"node --version", true, "", "", ""},
	}
	for _, tc := range tests {
		s, err := Analyse(tc.src)
		if err != nil || len(s.Calls) == 0 {
			t.Fatalf("%q: %v", tc.src, err)
		}
		c := s.Calls[len(s.Calls)-1]
		e := Classify(c)
		if e.ReadOnly != tc.ro || !strings.Contains(e.Blocker, tc.blocker) || (tc.blocker == "") != (e.Blocker == "") ||
			!strings.Contains(e.Destructive, tc.destructive) || (tc.destructive == "") != (e.Destructive == "") {
			t.Errorf("%q: ro=%v blocker=%q destructive=%q", tc.src, e.ReadOnly, e.Blocker, e.Destructive)
		}
		if tc.canonical != "" && strings.Join(e.Canonical, " ") != tc.canonical {
			t.Errorf("%q: canonical %q, want %q", tc.src, e.Canonical, tc.canonical)
		}
	}
}

func TestWriteTargets(t *testing.T) {
	tests := map[string]string{
		"cp a b c dir":        "dir",
		"cp -t dir a b":       "dir",
		"mv a b":              "a b",
		"ln -s target":        "target",
		"tee -a x y":          "x y",
		"touch -r ref new":    "new",
		"sed -i s/a/b/ f g":   "f g",
		"sed -n p f":          "",
		"dd if=a of=b":        "b",
		"chmod 644 a b":       "a b",
		"curl -o out url":     "out",
		"install -d d1 d2":    "d1 d2",
		"rm -r --one-file x":  "x",
		"mkdir -p -m 755 a/b": "a/b",
	}
	for src, want := range tests {
		s, _ := Analyse(src)
		e := Classify(s.Calls[0])
		var got []string
		for _, w := range e.Writes {
			got = append(got, w.Value)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: writes %q, want %q", src, got, want)
		}
	}
}

func TestOptionAbbreviations(t *testing.T) {
	p := opts{long: []string{"output", "other"}}.parse([]Word{{Value: "--outp"}, {Value: "x"}, {Value: "--rec"}})
	if !p.has("--recursive") || !p.has("--output") || p.has("--other") || len(p.value("--output")) != 1 || p.value("--output")[0].Value != "x" {
		t.Errorf("parsed %+v", p)
	}
	if (opts{}).parse([]Word{{Value: "--r"}}).has("--recursive") {
		t.Error("a one-letter abbreviation counted")
	}
}

func FuzzAnalyse(f *testing.F) {
	for _, s := range []string{"ls -la | grep x > out", "echo $(rm -rf /)", "bash -c 'cd x && echo > y'",
		"for f in *; do cat \"$f\"; done", "cat <<EOF\n$(x)\nEOF", "find . -exec sh -c 'rm {}' \\;", "git -C a -c x=y log",
		"a=(1 2); echo ${a[@]}", "f() { :; }", "echo $'\\x41' `date` ${x:-y}", "sed -n 's/a/b/w f' x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(time.Minute):
				panic(fmt.Sprintf("Analyse hangs on %q", src))
			}
		}()
		s, err := Analyse(src)
		if err != nil {
			return
		}
		for _, c := range s.Calls {
			e := Classify(c)
			if e.ReadOnly && (e.Blocker != "" || len(e.FlagWrites) > 0) {
				t.Fatalf("%q: read-only with a blocker or writes: %+v", src, e)
			}
			if len(c.Args) == 0 {
				t.Fatalf("%q: a call without words", src)
			}
		}
		if strings.Contains(src, "$(") && len(s.Problems) == 0 && !strings.Contains(src, "'") && !strings.Contains(src, "\\") && !strings.Contains(src, "#") && !strings.Contains(src, "<<") {
			t.Fatalf("%q: a command substitution and no problem", src)
		}
	})
}
