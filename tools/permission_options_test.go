package tools

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/sandbox"
)

var optionProbe = flag.Bool("keel.optionprobe", false, "try every option of the read-only programs (TestReadOnlyOptionsHaveNoEffect)")

// optionPrograms are programs keel may run without asking, with the
// arguments before each option (git's subcommands).
var optionPrograms = [][]string{
	{"cat"}, {"head"}, {"tail"}, {"wc"}, {"cut", "-c1"}, {"stat"}, {"du"}, {"grep", "x"}, {"sort"}, {"uniq"}, {"xxd"},
	{"base64"}, {"file"}, {"sed", "-n", "1p"}, {"tac"}, {"nl"}, {"od"}, {"strings"}, {"fold"}, {"fmt"}, {"expand"},
	{"paste"}, {"tr", "a", "b"}, {"diff"}, {"cmp"}, {"comm"}, {"join"}, {"column"}, {"md5sum"}, {"ls"}, {"jq", "."},
	{"git", "log"}, {"git", "diff"}, {"git", "show"}, {"git", "blame"}, {"git", "grep", "x"}, {"git", "status"},
}

// helpOptions are the options a program's --help names.
func helpOptions(prog []string) []string {
	args := append(append([]string(nil), prog...), "--help")
	if prog[0] == "git" {
		args = []string{"git", prog[1], "-h"}
	}
	out, _ := exec.Command(args[0], args[1:]...).CombinedOutput()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:^|[\s,\[])(--?[A-Za-z0-9][-A-Za-z0-9]*)(=?)`).FindAllStringSubmatch(string(out), -1) {
		seen[m[1]+m[2]] = true
	}
	var opts []string
	for o := range seen {
		opts = append(opts, o)
	}
	sort.Strings(opts)
	return opts
}

// TestReadOnlyOptionsHaveNoEffect checks keel's option tables against the
// real programs: every option their --help names is tried in forms that
// would hide an output operand, name a file outside the workspace as a
// value, or a loopback URL; each form keel allows without asking runs,
// in a sandbox that keeps its writes in a scratch tree, and must neither
// write there, nor print the outside file, nor connect.
//
// It takes about three minutes (6,179 forms, 5,021 run), so it runs with
// -keel.optionprobe; every change to tools/shell's tables should.
func TestReadOnlyOptionsHaveNoEffect(t *testing.T) {
	if !*optionProbe {
		t.Skip("runs every option of the read-only programs; pass -keel.optionprobe")
	}
	if err := sandbox.Check(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	ws := newTestWS(t, map[string]string{"go.mod": "module x\n"})
	gitInit(t, ws.Root())
	outside := filepath.Join(nonTempDir(t), "outside-canary")
	writeFileT(t, outside, "OUTSIDE-CANARY-VALUE\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conns := make(chan struct{}, 1024)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- struct{}{}
			c.Close()
		}
	}()
	url := "http://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) + "/x"
	p := mustPolicy(t, ws, PolicyOptions{})
	runner := testRunner(t, true, ws.Root(), "/dev/null")
	tried, ran := 0, 0
	for _, prog := range optionPrograms {
		if _, err := exec.LookPath(prog[0]); err != nil {
			continue
		}
		var forms []string
		for _, o := range helpOptions(prog) {
			name := strings.TrimSuffix(o, "=")
			for _, tail := range []string{"in.txt out.txt", "out.txt in.txt", outside + " in.txt", url + " in.txt", "in.txt " + name + " out.txt"} {
				forms = append(forms, strings.Join(prog, " ")+" "+name+" "+tail)
			}
			if strings.HasPrefix(o, "--") {
				forms = append(forms, strings.Join(prog, " ")+" "+name+"=out.txt in.txt", strings.Join(prog, " ")+" "+name+"="+outside+" in.txt")
			}
		}
		var allowed []string
		for _, f := range forms {
			tried++
			raw, _ := json.Marshal(m{"command": f, "workdir": "probe"})
			mustMkdir(t, filepath.Join(ws.Root(), "probe"))
			if d := p.Decide(NameRunCommand, raw); d.Verdict == Allow {
				allowed = append(allowed, f)
			}
		}
		ran += len(allowed)
		for _, f := range probeBatch(t, runner, ws.Root(), allowed, conns) {
			t.Errorf("%s", f)
		}
	}
	t.Logf("%d forms of %d programs' options tried, %d allowed without asking and run: none had an effect", tried, len(optionPrograms), ran)
}

// probeBatch runs each command in its own directory (probe-N, holding
// only in.txt) through runner, in one helper, and reports the ones that
// wrote, printed the outside canary, or connected.
func probeBatch(t *testing.T, runner *sandbox.Runner, root string, cmds []string, conns chan struct{}) []string {
	if len(cmds) == 0 {
		return nil
	}
	var script strings.Builder
	for i, c := range cmds {
		d := filepath.Join(root, fmt.Sprintf("probe-%d", i))
		mustMkdir(t, d)
		writeFileT(t, filepath.Join(d, "in.txt"), "line a\nline b\n")
		fmt.Fprintf(&script, "(cd %s && timeout 1 %s) </dev/null >%s.out 2>&1\n", d, c, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd, err := runner.Command(ctx, []string{"bash", "-c", script.String()})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "LANG=C", "GIT_PAGER=cat", fastRaceExit}
	_ = cmd.Run()
	var effects []string
	for i, c := range cmds {
		d := filepath.Join(root, fmt.Sprintf("probe-%d", i))
		ents, _ := os.ReadDir(d)
		b, _ := os.ReadFile(filepath.Join(d, "in.txt"))
		out, _ := os.ReadFile(d + ".out")
		switch {
		case len(ents) != 1 || string(b) != "line a\nline b\n":
			effects = append(effects, fmt.Sprintf("%q ran without asking and wrote a file", c))
		case strings.Contains(string(out), "OUTSIDE-CANARY-VALUE"):
			effects = append(effects, fmt.Sprintf("%q ran without asking and read the file outside the workspace", c))
		}
		os.RemoveAll(d)
		os.Remove(d + ".out")
	}
	for len(conns) > 0 {
		<-conns
		effects = append(effects, fmt.Sprintf("one of %d commands of %s connected to the loopback listener", len(cmds), strings.Fields(cmds[0])[0]))
	}
	return effects
}

// gitInit makes dir a git repository with one commit.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, c := range [][]string{{"init", "-q"}, {"-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, c...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", c, err, out)
		}
	}
}
