package tools

import (
	"bytes"
	"context"
	"flag"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/sandbox"
)

var (
	diffCount = flag.Int("keel.diffcount", defaultDiffCount(), "commands the permission differential test generates (default 5000, 20000 with KEEL_SOAK=1; 300000 before a change to tools/shell lands)")
	diffSeed  = flag.Int64("keel.diffseed", 12, "seed of the permission differential test's generator")
)

// defaultDiffCount keeps make test within its time: each approved command
// starts a helper in a mount namespace of its own (~30-200 ms of wall
// time on a busy 2-core machine, little CPU). The generator's seed is
// fixed, so make test runs the first 5000 of the soak's 20000.
func defaultDiffCount() int {
	if os.Getenv("KEEL_SOAK") != "" {
		return 20000
	}
	return 5000
}

// TestPermissionDifferential generates commands that hide a payload
// inside shell constructs (substitutions, expansions, quotes, heredocs,
// redirections, wrappers, nested scripts, assigning builtins, option
// tables) and checks the policy against bash itself: whenever a policy
// allows a command without --yolo, running it under bash (unconfined:
// this tests the analysis) never executes the payload, never changes the
// canary file and never writes into .git. What only --yolo allows runs
// as keel runs an approved command, in the writable sandbox, where the
// outside marker and .git must stay untouched: the analysis cannot know
// every program's output files (uniq IN OUT), the sandbox holds.
func TestPermissionDifferential(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	ws := newTestWS(t, map[string]string{"canary": "canary\n", "src/a.go": "package a\n", "go.mod": "module x\n"})
	mustMkdir(t, filepath.Join(ws.Root(), ".git", "hooks"))
	markDir := nonTempDir(t)
	mark := filepath.Join(markDir, "executed")
	ws.home = markDir
	hijack(t, ws.Root(), mark) // bin/ls and bin/cat run the payload: PATH=$PWD/bin hijacks them
	pols := []*Policy{
		mustPolicy(t, ws, PolicyOptions{}),
		mustPolicy(t, ws, PolicyOptions{Allow: []string{"run_command:ls *", "run_command:echo *", "run_command:cat *",
			"run_command:git *", "run_command:find *", "run_command:bash *", "run_command:sh *", "run_command:env *",
			"run_command:xargs *", "run_command:timeout *", "run_command:printf *", "run_command:test *", "run_command:true"}}),
		mustPolicy(t, ws, PolicyOptions{Yolo: true}),
	}
	payloads := []string{"touch " + mark, "echo pwned > canary", "echo x > .git/hooks/pre-commit"}
	r := rand.New(rand.NewSource(*diffSeed))
	seen := map[string]bool{}
	type job struct {
		cmd  string
		yolo bool // only --yolo allowed it
	}
	var jobs []job
	generated := 0
	for generated < *diffCount {
		cmd := generate(r, payloads[r.Intn(len(payloads))], 1+r.Intn(3))
		generated++
		if seen[cmd] {
			continue
		}
		seen[cmd] = true
		strict, yolo := false, false
		for i, p := range pols {
			if p.Decide(NameRunCommand, args(m{"command": cmd})).Verdict == Allow {
				strict, yolo = strict || i < 2, yolo || i == 2
			}
		}
		if strict || yolo {
			jobs = append(jobs, job{cmd, !strict})
		}
	}
	t.Logf("%d commands generated, %d distinct, %d allowed by some policy and run under bash", generated, len(seen), len(jobs))
	baseline := rootEntries(t, ws.Root())
	approved := approvedRunner(t, ws.Root())
	var mu sync.Mutex // one command at a time: they share the workspace
	escapes := 0
	if err := sandbox.AdoptOrphans(); err != nil {
		t.Logf("background jobs may outlive their command: %v", err)
	}
	for _, j := range jobs {
		mu.Lock()
		if j.yolo {
			if approved == nil {
				continue
			}
			runApproved(approved, ws.Root(), markDir, j.cmd)
		} else {
			runBash(ws.Root(), markDir, j.cmd)
		}
		var hit []string
		if _, err := os.Stat(mark); err == nil {
			hit = append(hit, "ran the payload")
		}
		if _, err := os.Stat(filepath.Join(ws.Root(), ".git", "hooks", "pre-commit")); err == nil {
			hit = append(hit, "wrote into .git")
		}
		if b, _ := os.ReadFile(filepath.Join(ws.Root(), "canary")); !j.yolo && !bytes.Equal(b, []byte("canary\n")) {
			hit = append(hit, "changed the canary")
		}
		if len(hit) > 0 {
			escapes++
			if escapes <= 20 {
				t.Errorf("allowed, then %s under bash:\n%s", strings.Join(hit, ", "), j.cmd)
			}
		}
		restore(t, ws.Root(), mark, baseline)
		mu.Unlock()
	}
	if escapes > 0 {
		t.Errorf("%d escapes in %d commands run", escapes, len(jobs))
	}
}

// approvedRunner is the sandbox of approved commands for root (nil, with
// a note, where the kernel has none: --yolo's jobs are not run then).
func approvedRunner(t *testing.T, root string) *sandbox.Runner {
	if err := sandbox.Check(); err != nil {
		t.Logf("--yolo's commands are not run: no sandbox here (%v)", err)
		return nil
	}
	r := testRunner(t, true, sandbox.Writable(root, nil, func(string) string { return "" })...)
	r.Spec.Protect = sandbox.Protected(root, root)
	return r
}

// runApproved runs cmd as run_command runs an approved command.
func runApproved(r *sandbox.Runner, dir, home, cmd string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := r.Command(ctx, []string{"bash", "-c", cmd})
	if err != nil {
		return
	}
	g := sandbox.NewGuard(r.Spec.Protect)
	c.Dir = dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C", fastRaceExit}
	_ = c.Run()
	// A helper killed at its deadline (a loaded machine) leaves its
	// command's processes to this test, the subreaper: kill them before
	// the next command, or a late write would be blamed on it.
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	sandbox.KillDescendants()
	g.Restore()
}

// runBash runs cmd as run_command would, with a deadline. The test
// process adopts orphans (see TestPermissionDifferential) and kills
// every process left, so a late background write is never blamed on the
// next command.
func runBash(dir, home, cmd string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "bash", "-c", cmd)
	c.Dir = dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C"}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = time.Second
	_ = c.Run()
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	sandbox.KillDescendants()
}

func rootEntries(t *testing.T, root string) map[string]bool {
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		out[e.Name()] = true
	}
	return out
}

// restore puts the workspace back as it was: new entries removed, the
// canary rewritten, the marker and the hook gone.
func restore(t *testing.T, root, mark string, baseline map[string]bool) {
	for name := range rootEntries(t, root) {
		if !baseline[name] {
			os.RemoveAll(filepath.Join(root, name))
		}
	}
	os.WriteFile(filepath.Join(root, "canary"), []byte("canary\n"), 0o644)
	os.Remove(mark)
	os.Remove(filepath.Join(root, ".git", "hooks", "pre-commit"))
}

// q single-quotes s for bash.
func q(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// dq double-quotes s for bash.
func dq(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s) + `"`
}

// shellForms wrap a command s: some run it, some only mention it. The
// test does not need to know which; bash does.
var shellForms = []func(s string) string{
	func(s string) string { return "echo $(" + s + ")" },
	func(s string) string { return `echo "$(` + s + `)"` },
	func(s string) string { return "echo `" + s + "`" },
	func(s string) string { return "echo $(( $(" + s + ") ))" },
	func(s string) string { return "echo $(( a[$(" + s + ")] ))" },
	func(s string) string { return "x=" + q("a[$("+s+")]") + "; echo $(( x ))" },
	func(s string) string { return "x=" + q("a[$("+s+")]") + "; [[ $x -eq 0 ]]" },
	func(s string) string { return "echo ${x:-$(" + s + ")}" },
	func(s string) string { return `echo "${x:=$(` + s + `)}"` },
	func(s string) string { return ": ${x:?$(" + s + ")}" },
	func(s string) string { return "echo ${a[$(" + s + ")]}" },
	func(s string) string { return `echo "${a[$(` + s + `)]}"` },
	func(s string) string { return "echo ${x/a/$(" + s + ")}" },
	func(s string) string { return "a=( $(" + s + ") )" },
	func(s string) string { return "cat <<EOF\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<-EOF\n\t$(" + s + ")\n\tEOF" },
	func(s string) string { return "cat <<'EOF'\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<\"EOF\"\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<\\EOF\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<'X-'\n$(" + s + ")\nX\nX-" },
	func(s string) string { return "cat <<X-\n$(" + s + ")\nX-" },
	func(s string) string { return "cat <<'X'\nX \n$(" + s + ")\nX" },
	func(s string) string { return "echo " + q(s) },
	func(s string) string { return "echo " + dq(s) },
	func(s string) string { return `echo \$(` + s + `)` },
	func(s string) string { return `echo "\$(` + s + `)"` },
	func(s string) string { return "echo $'a\\' ; " + s + " ; echo \\'b'" },
	func(s string) string { return "echo 'a\\' ; " + s + " ; echo \\'b" },
	func(s string) string { return "echo $" + q(s) },
	func(s string) string { return "echo a # $(" + s + ")" },
	func(s string) string { return "echo a#$(" + s + ")" },
	func(s string) string { return "echo {a,$(" + s + ")}" },
	func(s string) string { return "bash -c " + q(s) },
	func(s string) string { return "sh -c " + dq(s) },
	func(s string) string { return "env " + s },
	func(s string) string { return "env -i PATH=/usr/bin:/bin " + s },
	func(s string) string { return "timeout 5 " + s },
	func(s string) string { return "nice -n 1 " + s },
	func(s string) string { return "command " + s },
	func(s string) string { return "time " + s },
	func(s string) string { return "xargs " + s + " </dev/null" },
	func(s string) string { return "find . -maxdepth 0 -exec " + s + " \\;" },
	func(s string) string { return "find . -maxdepth 0 -exec bash -c " + q(s) + " \\;" },
	func(s string) string { return "eval " + q(s) },
	func(s string) string { return "true && " + s },
	func(s string) string { return "false || " + s },
	func(s string) string { return "{ " + s + "; }" },
	func(s string) string { return "( " + s + " )" },
	func(s string) string { return "if true; then " + s + "; fi" },
	func(s string) string { return "for i in 1; do " + s + "; done" },
	func(s string) string { return "case x in x) " + s + ";; esac" },
	func(s string) string { return "while " + s + "; do break; done" },
	func(s string) string { return "f() { " + s + "; }; f" },
	func(s string) string { return "ls() { " + s + "; }; ls" },
	func(s string) string { return "trap " + q(s) + " EXIT" },
	func(s string) string { return "source <(echo " + q(s) + ")" },
	func(s string) string { return "echo " + q(s) + " | bash" },
	func(s string) string { return "bash <<< " + q(s) },
	func(s string) string { return "cat <<EOF | sh\n" + s + "\nEOF" },
	func(s string) string { return "x=$(" + s + ")" },
	func(s string) string { return "ls > \"$(" + s + ")\"" },
	func(s string) string { return "[[ -n $(" + s + ") ]]" },
	func(s string) string { return "test -n \"$(" + s + ")\"" },
	func(s string) string { return "ls; " + s },
	func(s string) string { return "ls | " + s },
	func(s string) string { return s + " &" },
	func(s string) string { return "exec " + s },
	func(s string) string { return "cd src && " + s },
	func(s string) string { return "cd .git && " + strings.ReplaceAll(s, ".git/", "") },
	func(s string) string { return "git --no-pager -C . " + s },
	func(s string) string { return "PATH=/nonexistent:$PATH " + s },
	func(s string) string { return "shopt -s expand_aliases\nalias ls=" + q(s) + "\nls" },
	func(s string) string { return "printf %s " + q(s) + " | sh" },
	func(s string) string { return "coproc " + s },
	func(s string) string { return "coproc bash <<< " + q(s) },
	func(s string) string { return "coproc c { " + s + "; }" },
	func(s string) string { return "{" + strings.ReplaceAll(s, " ", ",") + "}" },
	func(s string) string { return "r=" + q(s) + "; $r" },
	func(s string) string { return "echo x >& " + redirectTarget(s) },
	func(s string) string { return "echo x 3<> " + redirectTarget(s) },
	func(s string) string { return "echo x >| " + redirectTarget(s) },
	func(s string) string { return "echo x | tee " + redirectTarget(s) },
	func(s string) string { return "cp go.mod " + redirectTarget(s) },
	func(s string) string { return "echo a \\\n; " + s },
	func(s string) string { return "! " + s },
	func(s string) string { return s + " && :" },
	func(s string) string { return "cat <<\"E\"OF\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<E\\OF\n$(" + s + ")\nEOF" },
	func(s string) string { return "cat <<-'EOF'\n\t$(" + s + ")\n\tEOF" },
	func(s string) string { return "echo $(cat <<EOF\n$(" + s + ")\nEOF\n)" },
	func(s string) string { return "cat <(" + s + ")" },
	func(s string) string { return "diff <(" + s + ") go.mod" },
	func(s string) string { return "echo ${x:-'$(" + s + ")'}" },
	func(s string) string { return "echo ${x#*$(" + s + ")}" },
	func(s string) string { return "echo \"$( echo ')' ; " + s + " )\"" },
	func(s string) string { return "echo $(case x in x) " + s + ";; esac)" },
	func(s string) string { return "echo $( # )\n" + s + "\n)" },
	func(s string) string { return "{" + s + ";}" },
	func(s string) string { return "echo @(" + s + ")" },
	func(s string) string { return "ls -- $(" + s + ")" },
	func(s string) string { return "exec 3>&1; " + s },
	func(s string) string { return "\\" + s },
	func(s string) string { return "\"" + strings.Replace(s, " ", "\" ", 1) },
	func(s string) string { return strings.Replace(s, "o", "''o", 1) },
	func(s string) string { return "$'" + strings.Replace(s, "t", "\\164", 1) + "'" },
	func(s string) string { return "a=(" + q(s) + "); ${a[@]}" },
	func(s string) string { return "echo \"${a[@]}\" " + q(s) },
	func(s string) string { return "select x in a; do " + s + "; break; done </dev/null" },
	func(s string) string { return "until " + s + "; do break; done" },
	func(s string) string { return "[ -n \"`" + s + "`\" ]" },
	func(s string) string { return "printf '%s\\n' " + q(s) + " > /dev/null" },
	func(s string) string { return "echo x > /dev/null; " + s },
	func(s string) string { return "time -p " + s },
}

// hijack writes bin/ls and bin/cat into the workspace: each runs the
// payload (touches mark), so a command that points PATH at $PWD/bin
// (read PATH, printf -v PATH, …) and then runs ls has escaped.
func hijack(t *testing.T, root, mark string) {
	t.Helper()
	mustMkdir(t, filepath.Join(root, "bin"))
	for _, name := range []string{"ls", "cat"} {
		p := filepath.Join(root, "bin", name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch "+mark+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// assignForms hide the payload behind a builtin that assigns a variable:
// a subscript's arithmetic, PS4 under set -x, a mapfile callback, or
// PATH pointed at the workspace's bin (see hijack).
var assignForms = []func(s string) string{
	func(s string) string { return "read " + q("a[$("+s+")]") + " <<< 1" },
	func(s string) string { return "read -a " + q("a[$("+s+")]") + " <<< 1" },
	func(s string) string { return "printf -v " + q("a[$("+s+")]") + " %s 1" },
	func(s string) string { return "sleep 0 & wait -p " + q("a[$("+s+")]") + " $!" },
	func(s string) string { return "getopts a " + q("a[$("+s+")]") },
	func(s string) string { return "mapfile -C " + q(s+" #") + " -c 1 arr <<< x" },
	func(s string) string { return "readarray -C " + q(s+" #") + " -c 1 arr <<< x" },
	func(s string) string { return "declare " + q("a[$("+s+")]") + "=1" },
	func(s string) string { return "builtin declare " + q("a[$("+s+")]") + "=1" },
	func(s string) string { return "export " + q("a[$("+s+")]") + "=1" },
	func(s string) string { return "f() { local " + q("a[$("+s+")]") + "=1; }; f" },
	func(s string) string { return "printf -v PS4 %s " + q("$("+s+")") + "; set -x; true" },
	func(s string) string { return "read PS4 <<< " + q("$("+s+")") + "; set -x; true" },
	func(s string) string { return "x=" + q("a[$("+s+")]") + "; test -v \"$x\"" },
	func(s string) string { return "[[ -v " + q("a[$("+s+")]") + " ]]" },
	func(s string) string { return `read PATH <<< "$PWD/bin"; ls` },
	func(s string) string { return `printf -v PATH %s "$PWD/bin"; ls` },
	func(s string) string { return `mapfile -t PATH <<< "$PWD/bin"; ls` },
	func(s string) string { return `readarray -t PATH <<< "$PWD/bin"; cat go.mod` },
	func(s string) string { return `builtin declare PATH="$PWD/bin"; ls` },
	func(s string) string { return `command read PATH <<< "$PWD/bin"; ls` },
	func(s string) string { return `IFS= read -r PATH <<< "$PWD/bin"; ls` },
	func(s string) string { return `while read PATH; do ls; done <<< "$PWD/bin"` },
}

// arityForms aim a program whose options keel models at the payload's
// target through an operand an option table could hide.
var arityForms = []func(s string) string{
	func(s string) string { return "uniq --group go.mod " + redirectTarget(s) },
	func(s string) string { return "uniq --all-repeated go.mod " + redirectTarget(s) },
	func(s string) string { return "uniq -c go.mod " + redirectTarget(s) },
	func(s string) string { return "xxd -C go.mod " + redirectTarget(s) },
	func(s string) string { return "xxd go.mod " + redirectTarget(s) },
	func(s string) string { return "xxd -g 1 go.mod " + redirectTarget(s) },
	func(s string) string { return "xxd go.mod -c 4 " + redirectTarget(s) },
	func(s string) string { return "base64 go.mod " + redirectTarget(s) },
	func(s string) string { return "sort -o " + redirectTarget(s) + " go.mod" },
	func(s string) string { return "sort -mo" + redirectTarget(s) + " go.mod" },
	func(s string) string { return "tree -o " + redirectTarget(s) },
	func(s string) string {
		return "git diff -M --no-index --output=" + redirectTarget(s) + " go.mod src/a.go"
	},
	func(s string) string { return "git diff -C --no-index go.mod src/a.go --output " + redirectTarget(s) },
	func(s string) string {
		return "git diff -U --output=" + redirectTarget(s) + " --no-index go.mod src/a.go"
	},
	func(s string) string { return "git log -M --output=" + redirectTarget(s) },
	func(s string) string { return "jq -n 1 --arg x y > " + redirectTarget(s) },
	func(s string) string { return "jq --rawfile x go.mod -n '$x' --args " + redirectTarget(s) },
	func(s string) string { return "cut -d: -f1 go.mod --output-delimiter=x " + redirectTarget(s) },
	func(s string) string { return "head -n 1 go.mod " + redirectTarget(s) },
	func(s string) string { return "find . -maxdepth 0 -fprint " + redirectTarget(s) },
	func(s string) string { return "sed -n 1p go.mod w " + redirectTarget(s) },
	func(s string) string { return "sed -n '1w " + redirectTarget(s) + "' go.mod" },
	func(s string) string { return "diff go.mod src/a.go --to-file=" + redirectTarget(s) },
}

func init() { shellForms = append(append(shellForms, assignForms...), arityForms...) }

// redirectTarget is the file a payload writes, to aim other writers at.
func redirectTarget(s string) string {
	if i := strings.LastIndex(s, "> "); i >= 0 {
		return s[i+2:]
	}
	return strings.Fields(s)[len(strings.Fields(s))-1]
}

// generate wraps payload in depth random forms.
func generate(r *rand.Rand, payload string, depth int) string {
	s := payload
	for range depth {
		s = shellForms[r.Intn(len(shellForms))](s)
	}
	return s
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := rand.New(rand.NewSource(1)), rand.New(rand.NewSource(1))
	for range 100 {
		if x, y := generate(a, "touch m", 3), generate(b, "touch m", 3); x != y {
			t.Fatalf("%q != %q", x, y)
		}
	}
}
