package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/keel-dev/keel/config"
)

// lessonsOffered is how many lessons a new task is offered (0: lessons
// are off, and none are stored either).
func lessonsOffered(cfg *config.Config) int {
	if !cfg.Memory.Lessons {
		return 0
	}
	return cfg.Memory.LessonsOffered
}

// internalErrorsEnv names a file every internal error is appended to, one
// line each; the e2e suites set it and fail on any line.
const internalErrorsEnv = "KEEL_INTERNAL_ERRORS"

// internalErrorLog reports an internal error (a state transition the
// table lacks) on stderr, and in $KEEL_INTERNAL_ERRORS when set.
func internalErrorLog(stderr io.Writer) func(string) {
	var mu sync.Mutex
	path := os.Getenv(internalErrorsEnv)
	return func(what string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "keel: internal error: %s\n", what)
		if path == "" {
			return
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return
		}
		defer f.Close()
		fmt.Fprintf(f, "%s\n", what)
	}
}
