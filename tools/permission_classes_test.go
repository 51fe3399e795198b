package tools

import (
	"strings"
	"testing"
)

// issueClasses are the ways through that were found by trying keel as an
// attacker would, one or more per class; each must ask (or be denied).
var issueClasses = map[string][]string{
	"assigning builtins": {
		`read PATH <<< "$PWD/bin"; ls`, `printf -v PATH %s "$PWD/bin"; ls`, `mapfile -t PATH <<< /tmp; ls`,
		`unset HOME; git status`, `sleep 0 & wait -p PATH $!; ls`, `getopts a PATH; ls`, `declare -x HOME=.; git status`,
		`export HOME=.; git status`, `printf -v PS4 '$(touch x)'; set -x; ls`, `read 'a[$(touch x)]' <<< 1`,
		`printf -v 'a[$(touch x)]' %s 1`, `sleep 0 & wait -p 'a[$(touch x)]' $!`, `mapfile -C 'touch x' -c 1 arr <<< 1`,
		`let x=1`, `builtin declare PATH=.; ls`, `command read PATH <<< .; ls`, `read -a PATH <<< .; ls`,
		`x=1; read -r "$x" <<< 1`, `readarray GIT_DIR <<< x; git status`, `IFS=/ read -r a b <<< x`,
	},
	"option tables": {
		"xxd go.mod out.bin", "xxd -C go.mod out.bin", "xxd go.mod -c", "xxd -r -p go.mod out.bin", "uniq --group go.mod out.txt",
		"uniq go.mod out.txt", "uniq --all-repeated go.mod out.txt", "git diff -M --output=.git/config",
		"git diff -C --no-index /etc/passwd go.mod", "git diff -U --ext-diff", "git log -M --textconv -p",
		"git diff -M --output=AGENTS.md", "git diff -B --output=.keel/x", "git show -C --output=/tmp/x",
	},
	"options that read a file": {
		`jq --rawfile x /etc/passwd -n '$x'`, `jq --slurpfile x /etc/passwd -n '$x'`, "git config --file /etc/gitconfig --list",
		"git config -f /etc/gitconfig --get user.name", "git blame --contents /etc/passwd go.mod", `jq -L /etc -n 1`,
		"jq -f /etc/passwd go.mod", "git grep -f /etc/passwd", "git blame --ignore-revs-file /etc/passwd go.mod",
		"git ls-files --exclude-from=/etc/passwd", "git status --pathspec-from-file=/etc/passwd",
	},
}

// classesMustNotAsk are their everyday neighbours, which still run
// without asking.
var classesMustNotAsk = []string{
	"jq . package.json", "jq --arg x 1 '.a' package.json", "jq -r .name package.json", `jq -n --args '$ARGS' a b`,
	"git diff -M50%", "git log -n 5", "git diff -U5", "git log -S foo", "uniq -c go.mod", "xxd go.mod | head",
	"while read line; do echo $line; done < go.mod", "read -r x < go.mod; echo $x", `printf '%s\n' a`,
	"git config --get user.name", "git blame go.mod", "mapfile -t lines < go.mod", "git grep -n module",
}

func TestIssueClassesAsk(t *testing.T) {
	ws := newTestWS(t, map[string]string{"go.mod": "module x\n", "package.json": "{}", "AGENTS.md": "x"})
	p := mustPolicy(t, ws, PolicyOptions{})
	for class, cmds := range issueClasses {
		for _, cmd := range cmds {
			if d := p.Decide(NameRunCommand, args(m{"command": cmd})); d.Verdict == Allow {
				t.Errorf("%s: %q runs without asking", class, cmd)
			}
		}
	}
	var asked []string
	for _, cmd := range classesMustNotAsk {
		if d := p.Decide(NameRunCommand, args(m{"command": cmd})); d.Verdict != Allow || !d.ReadOnly {
			asked = append(asked, cmd+": "+d.Reason)
		}
	}
	if len(asked) > 0 {
		t.Errorf("everyday commands ask:\n%s", strings.Join(asked, "\n"))
	}
}
