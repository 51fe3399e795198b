package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/config"
)

// runTUI starts the terminal UI.
func (a *app) runTUI(cmd *cobra.Command, cfg *config.Config) error {
	fmt.Fprintln(a.stdout, "keel: the terminal UI is not built yet; run a task headless with keel -p \"...\"")
	return nil
}
