package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/keel-dev/keel/config"
)

// loadConfig loads the effective configuration for the flags given and
// prints warnings (unknown keys) to stderr. Bad configuration is a usage
// error (exit status 2).
func (a *app) loadConfig(cmd *cobra.Command) (*config.Config, error) {
	cwd, err := a.workDir()
	if err != nil {
		return nil, err
	}
	return a.loadConfigIn(cmd, cwd)
}

// loadConfigIn loads the configuration as seen from cwd (its project's
// .keel/config.toml), for keel acp's sessions in the editor's directories.
func (a *app) loadConfigIn(cmd *cobra.Command, cwd string) (*config.Config, error) {
	cfg, warnings, err := config.Load(config.LoadOptions{ConfigFile: a.flags.configFile, Cwd: cwd, Flags: setFlags(cmd)})
	for _, w := range warnings {
		fmt.Fprintf(a.stderr, "keel: warning: %s\n", w.String())
		a.warnings = append(a.warnings, "warning: "+w.String()) // the TUI shows them too
	}
	if err != nil {
		if errors.Is(err, config.ErrInvalid) {
			return nil, usageError(err)
		}
		return nil, usageError(fmt.Errorf("reading the configuration: %w", err))
	}
	return cfg, nil
}

// workDir is --cwd (checked to be a directory) or the process's directory.
func (a *app) workDir() (string, error) {
	if a.flags.cwd == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(a.flags.cwd)
	if err != nil {
		return "", usageError(fmt.Errorf("--cwd %s: %w", a.flags.cwd, err))
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", usageError(fmt.Errorf("--cwd %s is not a directory", a.flags.cwd))
	}
	return abs, nil
}

// setFlags lists the flags the user set, for config's flag layer.
func setFlags(cmd *cobra.Command) []config.Override {
	// cmd.Flags() holds the inherited persistent flags too, parsed there.
	var out []config.Override
	cmd.Flags().Visit(func(f *pflag.Flag) { out = append(out, config.Override{Flag: f.Name, Value: f.Value.String()}) })
	return out
}

func (a *app) configCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "print the effective configuration, with where each value came from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.loadConfig(cmd)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(a.stdout, config.Render(cfg))
			return err
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "print the configuration files keel searches, highest precedence last",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cwd, err := a.workDir()
			if err != nil {
				return err
			}
			for _, p := range config.SearchPaths(config.LoadOptions{ConfigFile: a.flags.configFile, Cwd: cwd}) {
				fmt.Fprintln(a.stdout, p)
			}
			return nil
		},
	}, &cobra.Command{
		Use:   "init",
		Short: "write a commented default configuration file (never overwrites)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := a.flags.configFile
			if path == "" {
				path = config.UserConfigPath(os.Getenv)
			}
			if err := config.WriteInit(path); err != nil {
				return usageError(err)
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", path)
			return nil
		},
	})
	return cmd
}
