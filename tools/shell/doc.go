// Package shell reads a bash command line the way bash reads it (with
// mvdan.cc/sh/v3/syntax) and reports what it would do: every simple
// command it runs, nested ones included (substitutions, bash -c, eval,
// xargs, find -exec and other wrappers), the directories each may run in,
// the files its redirections write, and every construct whose effect
// cannot be known before it runs (substitutions, expansions with
// operators, functions, eval, a program named by a variable, …).
//
// It knows commands too: which are read-only (ls, cat, grep, git status,
// …), which are destructive (rm -rf, git reset --hard, …), which flags
// run other programs or write files. It does no I/O; the permission
// policy in package tools resolves the paths against the workspace.
//
// The analysis is default-deny: a construct it does not understand is a
// Problem, never silently ignored.
package shell
