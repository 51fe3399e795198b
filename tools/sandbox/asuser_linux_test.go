package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The protection of approved commands also holds for a user who is not
// root: the helper then starts itself again in a user namespace (keel,
// not dumpable, cannot write its id maps). So does the read-only
// profile, in-process too, where the command's pid namespace is made in
// a user namespace. Run as root, this test runs those tests again as
// nobody.
func TestProtectionAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 || os.Getenv("KEEL_TEST_AS_NOBODY") != "" {
		t.Skip("runs as root, starting the protection test as nobody")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "keel-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sandbox.test")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil || os.Chmod(dir, 0o755) != nil {
		t.Skipf("cannot hand a directory to nobody: %v", err)
	}
	cmd := exec.Command(bin, "-test.run", "^("+strings.Join(asNobody, "|")+")$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "KEEL_TEST_AS_NOBODY=1", "GORACE=atexit_sleep_ms=0"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, name := range asNobody {
		if !strings.Contains(string(out), "--- PASS: "+name) || strings.Contains(string(out), "--- SKIP: "+name+"/in-process") {
			t.Fatalf("%s did not pass as nobody:\n%s", name, out)
		}
	}
}

// asNobody are the tests TestProtectionAsAnotherUser runs as nobody.
var asNobody = []string{"TestApprovedCommandsCannotChangeProtectedPaths", "TestReadOnlySandboxStopsWhatTheAnalysisMissed",
	"TestReadOnlyCommandsStartWithoutHelper", "TestInProcessLeftoversAreKilled", "TestInProcessCancelAndTimeoutKillEverything",
	"TestOtherThreadsStayUnconfined", "TestCommandCannotMakeNamespaces", "TestInProcessThreadState"}
