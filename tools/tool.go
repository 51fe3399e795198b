package tools

import (
	"context"
	"encoding/json"
)

// Class is a tool call's permission class.
type Class int

// Permission classes, from harmless to dangerous.
const (
	ReadOnly Class = iota // runs without asking
	Write                 // changes files: asks unless allowed
	Execute               // runs a command: asks unless allowed
)

// Tool is one capability the model can call. Run returns a Go error only
// when the harness itself broke; anything the model can act on (a missing
// file, an ambiguous edit, a failing command) is a Result with IsError set.
type Tool interface {
	Name() string
	Description() string
	Schema() json.RawMessage // JSON schema of the params object
	Class() Class
	// Run must not write into args: a large call's arguments are a
	// read-only view of the string the history holds (agent's outcome.args).
	Run(ctx context.Context, args json.RawMessage) (Result, error)
}

// Result is what a tool call produced.
type Result struct {
	Output   string       // text for the model (the agent caps it)
	IsError  bool         // the call failed in a way the model can act on
	Diff     string       // unified diff for writes and edits
	ExitCode *int         // run_command only
	Changes  []FileChange // files written or edited, for undo and discipline
	Reads    []ReadSpan   // file regions returned, for the re-read guard
	Job      *JobState    // a call that started or read a background job
	Images   []Image      // pictures for the model: image input where it accepts images
}

// FileChange records one file's content before and after a write, so the
// change can be undone. Existed is false when the write created the file.
type FileChange struct {
	Path    string // absolute, symlinks resolved
	Existed bool
	Before  []byte
	After   []byte
	Mode    uint32
	// A large file's edit keeps only what it replaced (Before and After
	// are nil) and the hashes of the whole file before and after (hex).
	Splices                   []Splice
	BeforeSHA256, AfterSHA256 string
	// ByCommand: a change a command made, found by comparing listings of
	// the workspace (content unknown: undo cannot restore it). Deleted:
	// the command removed the file.
	ByCommand, Deleted bool
	// JournalID is the Journal's record of this change, made before the
	// file was written (0: not journaled).
	JournalID int64
	// AfterNotKept: a large write_file streamed to the file; After is nil
	// and AfterSHA256 is the hash of what it wrote (undo needs only that,
	// and Before, which the journal holds).
	AfterNotKept bool
	// NewDirs are the directories the change creates for a new file
	// (absolute, outermost first); undo removes those it finds empty.
	NewDirs []string
}

// ReadSpan is a region of a file a tool returned to the model. Version
// identifies the file's content (a hash), so a read after a change is new.
type ReadSpan struct {
	Path    string // absolute, symlinks resolved
	Version string
	From    int // first line, 1-based
	To      int // last line returned, inclusive
	Total   int // lines in the file
}
