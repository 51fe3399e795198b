package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// runDecided runs a call as the agent does: the policy decides, and an
// allowed call runs on the decision's target.
func runDecided(t *testing.T, pol *Policy, ts []Tool, name string, args m) (Result, bool) {
	t.Helper()
	raw, _ := json.Marshal(args)
	d := pol.Decide(name, raw)
	if d.Verdict != Allow {
		return Result{}, false
	}
	tool, _ := Lookup(ts, name)
	res, err := tool.Run(WithTarget(context.Background(), d.Target), raw)
	if err != nil {
		t.Fatal(err)
	}
	return res, true
}

// flip keeps replacing what path is until stop is closed: swap installs
// the hostile form, restore the honest one.
func flip(stop <-chan struct{}, wg *sync.WaitGroup, swap, restore func()) {
	defer wg.Done()
	for {
		select {
		case <-stop:
			restore()
			return
		default:
			swap()
			restore()
		}
	}
}

// TestSymlinkSwapRace flips a link or a directory on the path of 1,000
// writes and reads while they run: none lands outside the workspace or in
// .git, and none reads outside.
func TestSymlinkSwapRace(t *testing.T) {
	for _, scenario := range []string{"link flips outside", "link flips into .git", "directory swapped for a link"} {
		t.Run(scenario, func(t *testing.T) { swapRace(t, scenario) })
	}
}

func swapRace(t *testing.T, scenario string) {
	ws := newTestWS(t, map[string]string{"real/sub/secret.txt": "inside\n"})
	root := ws.Root()
	outside := t.TempDir()
	writeTestFile(t, filepath.Join(outside, "sub", "secret.txt"), "outside secret\n")
	hooks := filepath.Join(root, ".git", "hooks")
	mustMkdir(t, filepath.Join(hooks, "sub"))
	pol := mustPolicy(t, ws, PolicyOptions{Allow: []string{"write_file"}})
	ts := New(ws, Options{})
	entry := filepath.Join(root, "entry") // the name every call goes through
	relink := func(target string) func() {
		return func() {
			tmp := entry + ".tmp"
			os.Remove(tmp)
			if os.Symlink(target, tmp) == nil {
				os.Rename(tmp, entry) // atomic: the link always exists
			}
		}
	}
	swap, restore := relink(outside), relink("real")
	if scenario != "directory swapped for a link" {
		restore() // entry exists before the first call
	}
	switch scenario {
	case "link flips into .git":
		swap = relink(hooks)
	case "directory swapped for a link":
		// entry is a real directory or, atomically exchanged, a link out
		if err := os.Rename(filepath.Join(root, "real"), entry); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, entry+".alt"); err != nil {
			t.Fatal(err)
		}
		swap = func() { exchange(entry, entry+".alt") }
		restore = func() {
			if fi, err := os.Lstat(entry); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				exchange(entry, entry+".alt")
			}
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go flip(stop, &wg, swap, restore)
	var wrote, read int
	for i := range 1000 {
		if res, ok := runDecided(t, pol, ts, NameWriteFile, m{"path": "entry/sub/f.txt", "content": strconv.Itoa(i) + "\n"}); ok && !res.IsError {
			wrote++
		}
		if res, ok := runDecided(t, pol, ts, NameReadFile, m{"path": "entry/sub/secret.txt"}); ok && !res.IsError {
			read++
			if strings.Contains(res.Output, "outside secret") {
				t.Errorf("read outside the workspace (call %d)", i)
			}
		}
	}
	close(stop)
	wg.Wait()
	if ents, _ := os.ReadDir(filepath.Join(outside, "sub")); len(ents) != 1 {
		t.Errorf("writes landed outside the workspace: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(hooks, "sub")); len(ents) > 0 {
		t.Errorf("writes landed in .git/hooks: %v", ents)
	}
	if wrote == 0 || read == 0 {
		t.Errorf("%d writes and %d reads went through: the test proves nothing", wrote, read)
	}
	t.Logf("%d of 1000 writes and %d reads went through, all inside the workspace", wrote, read)
}
