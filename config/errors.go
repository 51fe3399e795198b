package config

import (
	"errors"
	"fmt"
)

// ErrInvalid matches every configuration error with errors.Is, so the caller
// can map bad configuration to exit status 2 without inspecting it.
var ErrInvalid = errors.New("invalid configuration")

// ErrNoAPIKey is wrapped by APIKey when a provider needs a key that is not
// set.
var ErrNoAPIKey = errors.New("no API key")

// Error is a problem in the configuration. When it came from a file, Path,
// Line and Col (1-based, in bytes) locate it and the message reads
// "path:line:col: what is wrong". Load may join several; use errors.As to
// get the first, or errors.Is(err, ErrInvalid) to classify.
type Error struct {
	Path      string // file the value came from; empty for env, flags and defaults
	Line, Col int    // position in Path; 0 when Path is empty
	Origin    string // "env KEEL_X" or "flag --x" when the value did not come from a file
	Key       string // dotted key concerned, if any
	Msg       string // what is wrong, one sentence
}

// Error formats the problem with its location.
func (e *Error) Error() string {
	switch {
	case e.Path != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Path != "":
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	case e.Origin != "":
		return fmt.Sprintf("%s: %s", e.Origin, e.Msg)
	}
	return e.Msg
}

// Is reports whether target is ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// errorAt builds an Error located where the value of key came from.
func errorAt(src Source, key, format string, args ...any) *Error {
	e := &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	switch src.Kind {
	case FromFile:
		e.Path, e.Line, e.Col = src.Name, src.Line, src.Col
	case FromEnv, FromFlag:
		e.Origin = src.String()
	}
	return e
}

// Warning is a problem that does not stop keel: an unknown key, or a key
// an untrusted project file may not set (Project is then that project's
// directory, which "keel trust" would trust, and Changed says it is trusted
// but its .keel/config.toml changed since).
type Warning struct {
	Path       string
	Line, Col  int
	Key        string // dotted key as written
	Suggestion string // a close known key, or empty
	Project    string // set when Key was ignored because Project is not trusted
	Changed    bool   // Project is trusted, but not with its file's current content
	Msg        string // any other problem that does not stop keel (a broken MCP server)
}

// Untrusted reports whether the warning is about a key ignored because the
// project is not trusted.
func (w Warning) Untrusted() bool { return w.Project != "" }

// String reads "path:line:col: unknown key "x" is ignored (did you mean "y"?)",
// "path:line:col: yolo is ignored: this project is not trusted (run
// "keel trust" to trust DIR)" or "path:line:col: yolo is ignored:
// .keel/config.toml changed since you trusted DIR (review it, then run
// "keel trust" again)".
func (w Warning) String() string {
	if w.Msg != "" {
		return fmt.Sprintf("%s:%d:%d: %s", w.Path, w.Line, w.Col, w.Msg)
	}
	if w.Untrusted() {
		t := projectTrust{Dir: w.Project, Changed: w.Changed}
		return fmt.Sprintf("%s:%d:%d: %s is ignored: %s (%s)", w.Path, w.Line, w.Col, w.Key, t.reason(), t.remedy())
	}
	msg := fmt.Sprintf("%s:%d:%d: unknown key %q is ignored", w.Path, w.Line, w.Col, w.Key)
	if w.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", w.Suggestion)
	}
	return msg
}
