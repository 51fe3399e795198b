package main

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError turns pflag's parse errors into a sentence that says what the
// flag expects, instead of strconv's ("strconv.ParseInt: parsing ..."),
// and marks them as usage errors (exit status 2).
func flagError(cmd *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	var missing *pflag.ValueRequiredError
	var unknown *pflag.NotExistError
	switch {
	case errors.As(err, &invalid) && outOfRange(invalid):
		return usageError(fmt.Errorf("%s is out of range: %s", flagName(invalid.GetFlag()), invalid.GetValue()))
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return usageError(fmt.Errorf("%s wants %s, got %q", flagName(f), flagWants(f.Value.Type()), invalid.GetValue()))
	case errors.As(err, &missing):
		return usageError(fmt.Errorf("%s needs a value (keel%s --help describes it)", flagName(missing.GetFlag()), subPath(cmd)))
	case errors.As(err, &unknown):
		return usageError(fmt.Errorf("%s; keel%s --help lists the flags", err, subPath(cmd)))
	}
	return usageError(err)
}

// outOfRange reports whether a rejected value is a whole number too large
// for its integer flag. pflag v1.1 no longer wraps strconv's ErrRange
// ("must be an integer" for both), so the value is parsed again.
func outOfRange(invalid *pflag.InvalidValueError) bool {
	if errors.Is(invalid, strconv.ErrRange) {
		return true
	}
	if flagWants(invalid.GetFlag().Value.Type()) != "a whole number" {
		return false
	}
	_, whole := new(big.Int).SetString(invalid.GetValue(), 0)
	return whole
}

// flagName is how the user may have typed the flag: "-p/--prompt".
func flagName(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return "-" + f.Shorthand + "/--" + f.Name
	}
	return "--" + f.Name
}

// flagWants names what a flag of a pflag type takes.
func flagWants(typ string) string {
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "duration":
		return "a duration such as 90s or 10m"
	}
	return "a valid " + typ
}

// subPath is the command's path after "keel" (" log show"), for naming
// its help.
func subPath(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name())
}

// strictBuiltins makes cobra's own help and completion commands refuse a
// topic or shell they do not know (a usage error, exit 2) instead of
// printing help and exiting 0. They are added here, before markArgErrors,
// rather than lazily when the root command runs.
func strictBuiltins(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Args = func(c *cobra.Command, args []string) error {
				if found, rest, err := c.Root().Find(args); len(args) > 0 && (err != nil || found == c.Root() || len(rest) > 0) {
					return usageError(fmt.Errorf("keel has no command %q to explain; keel --help lists them", strings.Join(args, " ")))
				}
				return nil
			}
		case "completion":
			// Runnable, so cobra checks its arguments: a shell it does not
			// know is "unknown command", made a sentence by markArgErrors.
			c.Args = cobra.NoArgs
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
	}
}

// markArgErrors makes every command's argument errors usage errors (exit
// status 2) with a sentence, walking the tree from cmd. Commands whose Args
// already say what they want (keellog's) keep their sentence.
func markArgErrors(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			if err == nil {
				return nil
			}
			return usageError(argsSentence(c, args, err))
		}
	}
	for _, sub := range cmd.Commands() {
		markArgErrors(sub)
	}
}

// argsSentence rewrites cobra's argument errors ("accepts at most 1
// arg(s)", "unknown command") as a sentence about this command.
func argsSentence(c *cobra.Command, args []string, err error) error {
	msg := err.Error()
	switch {
	case !c.HasParent() && len(args) > 0 && strings.HasPrefix(msg, "unknown command"):
		return fmt.Errorf("keel has no command %q; to run a task pass it with -p: keel -p %q", args[0], strings.Join(args, " "))
	case strings.HasPrefix(msg, "unknown command") && c.HasSubCommands():
		return fmt.Errorf("%s has no command %q; %s --help lists them", c.CommandPath(), args[0], c.CommandPath())
	case strings.HasPrefix(msg, "unknown command"):
		return fmt.Errorf("%s takes no arguments, got %q", c.CommandPath(), args[0])
	case strings.HasPrefix(msg, "accepts at most"):
		return fmt.Errorf("%s takes at most %s, got %d arguments", c.CommandPath(), argNames(c), len(args))
	}
	return err
}

// argNames is the arguments part of a command's Use line ("[DIR]").
func argNames(c *cobra.Command) string {
	_, names, ok := strings.Cut(c.Use, " ")
	if !ok {
		return "no arguments"
	}
	return "one argument, " + strings.Trim(names, "[]")
}
