package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTrustCoversContent: trust holds for the .keel/config.toml the user
// trusted, byte for byte, and for nothing written there since.
func TestTrustCoversContent(t *testing.T) {
	const doc = "yolo = true\n[datalog]\npath = \"/tmp/trusted.db\"\n"
	tests := []struct {
		name    string
		setup   func(t *testing.T, w *world) // trusts, edits
		applies bool
		changed bool // the warning says the file changed since trusted
	}{
		{"trusted", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
			w.trust(t)
		}, true, false},
		{"never trusted", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
		}, false, false},
		{"trusted then edited", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
			w.trust(t)
			writeFile(t, w.projectFile, doc+"# edit\n")
		}, false, true},
		{"trusted then a byte changed", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
			w.trust(t)
			writeFile(t, w.projectFile, strings.Replace(doc, "yolo = true", "yolo =  true", 1))
		}, false, true},
		{"trusted, edited, trusted again", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, "model = \"m\"\n")
			w.trust(t)
			writeFile(t, w.projectFile, doc)
			w.trust(t)
		}, true, false},
		{"trusted with no file, then one appears", func(t *testing.T, w *world) {
			w.trust(t)
			writeFile(t, w.projectFile, doc)
		}, false, true},
		{"trusted with no .keel, then an empty file appears and is edited", func(t *testing.T, w *world) {
			w.trust(t)
			writeFile(t, w.projectFile, "")
			writeFile(t, w.projectFile, doc)
		}, false, true},
		{"trusted, deleted, restored as it was", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
			w.trust(t)
			os.Remove(w.projectFile)
			writeFile(t, w.projectFile, doc)
		}, true, false},
		{"another directory trusted with this content", func(t *testing.T, w *world) {
			writeFile(t, w.projectFile, doc)
			other := t.TempDir()
			writeFile(t, filepath.Join(other, ".keel", "config.toml"), doc)
			sha, _ := ProjectConfigSHA256(other)
			if _, err := NewTrustStore(w.env.get).Add(other, sha); err != nil {
				t.Fatal(err)
			}
		}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			tt.setup(t, w)
			c, warns := w.load(t)
			if tt.applies {
				if !c.Yolo || c.Datalog.Path != "/tmp/trusted.db" || len(warns) != 0 {
					t.Errorf("yolo = %v, datalog.path = %q, warnings %v; want the file applied", c.Yolo, c.Datalog.Path, warns)
				}
				if dir, _ := c.UntrustedProject(); dir != "" {
					t.Errorf("UntrustedProject = %s", dir)
				}
				return
			}
			if c.Yolo || c.Datalog.Path != "" || len(warns) != 2 {
				t.Fatalf("yolo = %v, datalog.path = %q, warnings %v; want both ignored", c.Yolo, c.Datalog.Path, warns)
			}
			root := CanonicalDir(w.root)
			for _, wn := range warns {
				if wn.Project != root || wn.Changed != tt.changed {
					t.Errorf("warning %+v: want Project %s, Changed %v", wn, root, tt.changed)
				}
			}
			msg := warns[0].String()
			want := w.projectFile + `:1:1: yolo is ignored: this project is not trusted (run "keel trust" to trust ` + root + ")"
			if tt.changed {
				want = w.projectFile + `:1:1: yolo is ignored: .keel/config.toml changed since you trusted ` + root +
					` (review it, then run "keel trust" again)`
			}
			if msg != want {
				t.Errorf("warning\n got %s\nwant %s", msg, want)
			}
			if dir, changed := c.UntrustedProject(); dir != root || changed != tt.changed {
				t.Errorf("UntrustedProject = %s, %v", dir, changed)
			}
			r := Render(c)
			note := "(project not trusted)"
			if tt.changed {
				note = "(changed since trusted)"
			}
			if !strings.Contains(r, "IGNORED "+w.projectFile+":1 "+note) ||
				tt.changed != strings.Contains(r, "# .keel/config.toml changed since you trusted "+root) {
				t.Errorf("Render does not say why yolo was ignored:\n%s", r)
			}
		})
	}
}

// TestChangedProviderMessage: a provider whose base_url a changed file sets
// is unusable with an error saying the file changed, not that the project
// is untrusted.
func TestChangedProviderMessage(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`default_provider = "mine"`, `[providers.mine]`, `base_url = "http://127.0.0.1:9/v1"`, `model = "m"`))
	w.trust(t)
	writeFile(t, w.projectFile, lines(`default_provider = "mine"`, `[providers.mine]`, `base_url = "http://127.0.0.1:8/v1"`, `model = "m"`))
	c, _ := w.load(t)
	_, err := c.ActiveProvider()
	if err == nil || !strings.Contains(err.Error(), "changed since you trusted "+CanonicalDir(w.root)+`; review it, then run "keel trust" again`) {
		t.Errorf("ActiveProvider error = %v", err)
	}
}

// TestTrustJudgesTheBytesApplied: the verdict is on the bytes Load read and
// applies, never on a second read of the file.
func TestTrustJudgesTheBytesApplied(t *testing.T) {
	w := newWorld(t)
	trusted, hostile := []byte("yolo = true\n"), []byte("yolo = true\n[sandbox]\nmode = \"off\"\n")
	writeFile(t, w.projectFile, string(trusted))
	w.trust(t)
	writeFile(t, w.projectFile, string(hostile)) // on disk now, but not what is judged below
	if v := checkTrust(w.projectFile, trusted, w.env.get); v.Dir != "" {
		t.Errorf("the trusted bytes were judged %+v: the file on disk was read again", v)
	}
	writeFile(t, w.projectFile, string(trusted))
	if v := checkTrust(w.projectFile, hostile, w.env.get); v.Dir == "" || !v.Changed {
		t.Errorf("the hostile bytes were judged %+v: the file on disk was read again", v)
	}
}

// TestTrustSwapRace flips the project file between the trusted content and
// a hostile one while Load runs: whatever Load reads, it never applies a
// key needing trust from the hostile content.
func TestTrustSwapRace(t *testing.T) {
	w := newWorld(t)
	trusted := "yolo = true\n"
	hostile := "yolo = true\n[sandbox]\nmode = \"off\"\n[permissions]\nallow = [\"run_command\"]\n"
	writeFile(t, w.projectFile, trusted)
	w.trust(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(stop); wg.Wait() }) // before the temporary directories go
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			content := trusted
			if i%2 == 1 {
				content = hostile
			}
			tmp := w.projectFile + ".tmp"
			if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, w.projectFile); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var applied, ignored int
	for range 300 {
		c, _ := w.load(t)
		if c.Sandbox.Mode == SandboxOff || len(c.Permissions.Allow) != 0 {
			t.Fatalf("a hostile key applied: sandbox.mode = %q, allow = %v", c.Sandbox.Mode, c.Permissions.Allow)
		}
		if c.Yolo {
			applied++
		} else {
			ignored++
		}
	}
	t.Logf("yolo applied %d times (trusted content), ignored %d times (hostile content)", applied, ignored)
}
