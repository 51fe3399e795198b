package tools

import (
	"strings"
	"testing"
)

// explorationCommands are what a model runs to find its way around a
// project. They only read, so none of them may ask.
var explorationCommands = []string{
	"ls", "ls -la", "ls -R src", "pwd", "cat README.md", "head -50 src/a.go", "tail -n 20 src/a.go", "wc -l src/a.go",
	`grep -rn "func main" .`, `grep -rn TODO --include="*.go" .`, "rg pattern", `rg -n x -g "*.go"`, `find . -name "*.go"`,
	"find . -type f | head", "find . -maxdepth 2 -type d", "tree -L 2", "git status", "git log --oneline -10", "git diff",
	"git diff --stat", "git show HEAD", "git branch -a", "git log -p -1 -- src/a.go", "git blame src/a.go",
	"sed -n '1,50p' src/a.go", "cat go.mod | head", "echo $PATH", "which go", "go version", "go env GOPATH", "go list ./...",
	"file src/a.go", "stat src/a.go", "du -sh .", "df -h", "du -sh * | sort -h", "ls | wc -l", "cat go.mod src/a.go | grep module",
	"grep -c x src/a.go", "cut -d: -f1 go.mod", "sort go.mod | uniq -c | sort -rn | head", "jq . package.json",
	"cat package.json | jq .scripts", "diff go.mod src/a.go", "cmp go.mod src/a.go", "md5sum go.mod",
	"for f in src/*.go; do echo $f; done", "test -f go.mod && echo yes", "[ -d src ] && ls src", "type go", "command -v rg",
	"uname -a", "whoami", "date", "env | grep GO", "printenv PATH", "basename $PWD", "realpath .", "readlink -f go.mod",
	"git rev-parse --show-toplevel", "git remote -v", "git tag", "git stash list", "git ls-files | head", "git grep -n foo",
	"nl src/a.go | head", "tac go.mod", "sort -u go.mod", "column -t go.mod", "xxd go.mod | head", "od -c go.mod | head",
	"strings go.mod | head", "hexdump -C go.mod | head", "cd src && ls -la && cd ..", "ls -la 2>/dev/null || echo none",
	"grep -rl foo . | xargs wc -l", "find . -name '*.go' -exec grep -l func {} +", "git log --format='%h %s' -5",
	"git diff HEAD~1 --name-only", "git show --stat HEAD", "sed -n '/func/p' src/a.go", "head -c 200 go.mod",
}

func TestExplorationNeverAsks(t *testing.T) {
	ws := newTestWS(t, map[string]string{"go.mod": "module x\n", "src/a.go": "package a\n", "README.md": "x", "package.json": "{}"})
	p := mustPolicy(t, ws, PolicyOptions{})
	var asked []string
	for _, cmd := range explorationCommands {
		if d := p.Decide(NameRunCommand, args(m{"command": cmd})); d.Verdict != Allow {
			asked = append(asked, cmd+": "+d.Reason)
		}
	}
	if len(asked) > 0 {
		t.Errorf("%d of %d exploration commands ask:\n%s", len(asked), len(explorationCommands), strings.Join(asked, "\n"))
	}
}
