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
		Short: "trust this project's .keel/config.toml in full (--list, --remove)",
		Long: `keel trust lets the project's .keel/config.toml set the keys a repository
could abuse: ` + strings.Join(config.TrustedKeys(), ", ") + `.
Until then keel ignores them there, with a warning. The project is the directory
holding the nearest .keel/config.toml (else the git root) from DIR, --cwd or the
current directory. Trust is stored in your configuration directory
(trusted.toml next to config.toml), never in the project.`,
		Example: `  keel trust                trust the project here
  keel trust --list         list trusted projects
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
	cmd.Flags().BoolVar(&list, "list", false, "list the trusted project directories")
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

// trust adds the project to the trust file and says what that means.
func (a *app) trust(store *config.TrustStore, args []string) error {
	dir, hasConfig, err := a.trustTarget(args)
	if err != nil {
		return err
	}
	added, err := store.Add(dir)
	if err != nil {
		return usageError(err)
	}
	switch {
	case !added:
		fmt.Fprintf(a.stdout, "%s is already trusted\n", dir)
	case hasConfig:
		fmt.Fprintf(a.stdout, "trusted %s: its .keel/config.toml now applies in full (recorded in %s)\n", dir, store.Path)
	default:
		fmt.Fprintf(a.stdout, "trusted %s, which has no .keel/config.toml yet: one added there will apply in full (recorded in %s)\n", dir, store.Path)
	}
	return nil
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

// listTrusted prints one trusted directory per line.
func (a *app) listTrusted(store *config.TrustStore) error {
	dirs, err := store.List()
	if err != nil {
		return usageError(err)
	}
	if len(dirs) == 0 {
		fmt.Fprintln(a.stderr, "keel: no project is trusted")
	}
	for _, d := range dirs {
		fmt.Fprintln(a.stdout, d)
	}
	return nil
}
