package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BaselineAuto asks for the previous release: the newest tag reachable
// from HEAD, else the ref the budgets file names (docs/BENCHMARKS.md).
const BaselineAuto = "auto"

// resolveBaseline turns -baseline into a git ref; "" means no baseline.
func resolveBaseline(ctx context.Context, flag string, b Budgets) (string, error) {
	if flag != BaselineAuto {
		return flag, nil
	}
	out, err := exec.CommandContext(ctx, "git", "describe", "--tags", "--abbrev=0").Output()
	if tag := strings.TrimSpace(string(out)); err == nil && tag != "" {
		return tag, nil
	}
	if b.Baseline == "" {
		return "", fmt.Errorf("-baseline auto: the repository has no tag and the budgets file names no baseline")
	}
	return b.Baseline, nil
}

// BuildBaseline builds cmd/keel of ref, as make build does, from a copy of
// that commit's tree (git archive: the checkout and its worktrees are not
// touched) in a temporary directory. It returns the binary's path and a
// cleanup that removes everything.
func BuildBaseline(ctx context.Context, ref string, log io.Writer) (string, func(), error) {
	dir, err := os.MkdirTemp("", "keelbench-baseline-")
	if err != nil {
		return "", nil, fmt.Errorf("make the baseline's directory: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		cleanup()
		return "", nil, err
	}
	fmt.Fprintf(log, "keelbench: building the baseline %s in %s\n", ref, src)
	archive := exec.CommandContext(ctx, "git", "archive", "--format=tar", ref)
	var tarball, stderr bytes.Buffer
	archive.Stdout, archive.Stderr = &tarball, &stderr
	if err := archive.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("git archive %s: %v: %s", ref, err, strings.TrimSpace(stderr.String()))
	}
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", src)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("unpack %s: %v: %s", ref, err, out)
	}
	bin := filepath.Join(dir, "keel")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w -X main.version=baseline-"+ref, "-o", bin, "./cmd/keel")
	build.Dir, build.Env = src, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build the baseline %s: %v\n%s", ref, err, out)
	}
	return bin, cleanup, nil
}
