package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/config"
)

// trustCommand is `keel trust`: the user's list of projects whose
// .keel/config.toml may set the keys that run commands without asking or
// redirect the API key (config.TrustedKeys).
func (a *app) trustCommand() *cobra.Command {
	var list, remove bool
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "trust this project's .keel/config.toml, as it is now, in full (--list, --remove)",
		Long: `keel trust lets the project's .keel/config.toml set the keys a repository
could abuse: ` + strings.Join(config.TrustedKeys(), ", ") + `.
Until then keel ignores them there, with a warning. Trust covers the file as it
is now (its SHA-256 is recorded): once the file changes, or appears where there
was none, keel ignores those keys again until you review it and run keel trust
again. The project is the directory holding the nearest .keel/config.toml (else
the git root) from DIR, --cwd or the current directory. Trust is stored in your
configuration directory (trusted.toml next to config.toml), never in the project.`,
		Example: `  keel trust                trust the project here, its config file as it is now
  keel trust --list         list trusted projects and whether their file changed
  keel trust --remove       stop trusting the project here
  keel trust --remove DIR   stop trusting DIR, even if it no longer exists`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			store := config.NewTrustStore(os.Getenv)
			switch {
			case list && (remove || len(args) > 0):
				return usageError(errors.New("keel trust --list takes no directory and cannot be combined with --remove"))
			case list:
				return a.listTrusted(store)
			case remove:
				return a.untrust(store, args)
			}
			return a.trust(store, args)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the trusted project directories and whether each file still matches")
	cmd.Flags().BoolVar(&remove, "remove", false, "stop trusting the project (or DIR)")
	return cmd
}

// trustTarget is the project directory a trust command acts on: that of
// DIR when given, else of --cwd or the working directory.
func (a *app) trustTarget(args []string) (dir string, hasConfig bool, err error) {
	start, err := a.workDir()
	if len(args) == 1 {
		start, err = existingDir(args[0])
	}
	if err != nil {
		return "", false, err
	}
	dir, hasConfig = config.ProjectDir(start)
	return dir, hasConfig, nil
}

// existingDir is arg made absolute, or a usage error when it is not a
// directory.
func existingDir(arg string) (string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", usageError(fmt.Errorf("%s: %w", arg, err))
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", usageError(fmt.Errorf("%s is not a directory", arg))
	}
	return abs, nil
}

// trust records the project with the hash of its .keel/config.toml as it
// is now, and says what that means.
func (a *app) trust(store *config.TrustStore, args []string) error {
	dir, _, err := a.trustTarget(args)
	if err != nil {
		return err
	}
	sha, err := config.ProjectConfigSHA256(dir)
	if err != nil {
		return fmt.Errorf("cannot trust %s: %w", dir, err)
	}
	change, err := store.Add(dir, sha)
	if err != nil {
		return usageError(err)
	}
	fmt.Fprintln(a.stdout, trustMessage(dir, sha != "", change, store.Path))
	return nil
}

// trustMessage says what keel trust did: trust covers the file as it is
// now, or the absence of one.
func trustMessage(dir string, hasConfig bool, change config.TrustChange, path string) string {
	const renew = "after any change keel ignores its keys needing trust until you run \"keel trust\" again"
	switch {
	case change == config.TrustUnchanged && hasConfig:
		return fmt.Sprintf("%s is already trusted with its .keel/config.toml as it is now", dir)
	case change == config.TrustUnchanged:
		return fmt.Sprintf("%s is already trusted, with no .keel/config.toml", dir)
	case change == config.TrustUpdated && hasConfig:
		return fmt.Sprintf("trusted again: recorded the current .keel/config.toml of %s, which now applies in full as it is; %s (recorded in %s)", dir, renew, path)
	case change == config.TrustUpdated:
		return fmt.Sprintf("trusted again: recorded that %s now has no .keel/config.toml; one added there will be ignored until you run \"keel trust\" again (recorded in %s)", dir, path)
	case hasConfig:
		return fmt.Sprintf("trusted %s: its .keel/config.toml applies in full as it is now; %s (recorded in %s)", dir, renew, path)
	}
	return fmt.Sprintf("trusted %s, which has no .keel/config.toml: the keys needing trust in one added there will be ignored until you review it and run \"keel trust\" again (recorded in %s)", dir, path)
}

// untrust removes DIR as listed (it may be gone) or the project of DIR,
// --cwd or the working directory.
func (a *app) untrust(store *config.TrustStore, args []string) error {
	if len(args) == 1 {
		removed, err := store.Remove(args[0])
		if err != nil || removed {
			return a.untrusted(config.CanonicalDir(args[0]), removed, err)
		}
		if _, err := existingDir(args[0]); err != nil {
			return a.untrusted(config.CanonicalDir(args[0]), false, nil)
		}
	}
	dir, _, err := a.trustTarget(args)
	if err != nil {
		return err
	}
	removed, err := store.Remove(dir)
	return a.untrusted(dir, removed, err)
}

// untrusted reports the outcome of a removal.
func (a *app) untrusted(dir string, removed bool, err error) error {
	switch {
	case err != nil:
		return usageError(err)
	case removed:
		fmt.Fprintf(a.stdout, "%s is no longer trusted\n", dir)
	default:
		fmt.Fprintf(a.stdout, "%s was not trusted; nothing changed\n", dir)
	}
	return nil
}

// listTrusted prints one trusted directory per line, after whether its
// .keel/config.toml is still the one trusted.
func (a *app) listTrusted(store *config.TrustStore) error {
	list, err := store.List()
	if err != nil {
		return usageError(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(a.stderr, "keel: no project is trusted")
	}
	for _, p := range list {
		fmt.Fprintf(a.stdout, "%-21s  %s\n", trustStatus(p), p.Path)
	}
	return nil
}

// trustStatus is "ok" when the project's file is the one trusted, "changed
// since trusted" when it differs (or appeared since), "no config file" when
// there is none now (nothing to trust), or why the file cannot be read.
func trustStatus(p config.TrustedProject) string {
	sha, err := config.ProjectConfigSHA256(p.Path)
	switch {
	case err != nil:
		return "unreadable: " + err.Error()
	case sha == "":
		return "no config file"
	case !p.Matches(sha):
		return "changed since trusted"
	}
	return "ok"
}
