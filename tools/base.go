package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/keel-dev/keel/internal/bigargs"
)

// typed adapts a function over a typed params struct to the Tool interface:
// it owns decoding and the generated schema, so each tool file holds only
// its params, description and behaviour.
type typed[P any] struct {
	name   string
	desc   string
	class  Class
	schema json.RawMessage
	run    func(ctx context.Context, p P) (Result, error)
}

func newTyped[P any](name, desc string, class Class, run func(context.Context, P) (Result, error)) *typed[P] {
	var zero P
	return &typed[P]{name: name, desc: desc, class: class, schema: schemaFor(zero, nil), run: run}
}

// NewTool is a tool over a typed params struct, for tools defined outside
// this package (the agent's update_plan): the schema comes from P's tags,
// with enums giving the allowed values of fields by JSON name.
func NewTool[P any](name, desc string, class Class, enums map[string][]string, run func(context.Context, P) (Result, error)) Tool {
	var zero P
	return &typed[P]{name: name, desc: desc, class: class, schema: schemaFor(zero, enums), run: run}
}

// ErrResult is a failure the model can act on, for tools defined outside
// this package.
func ErrResult(format string, a ...any) Result { return errResult(format, a...) }

func (t *typed[P]) Name() string            { return t.name }
func (t *typed[P]) Description() string     { return t.desc }
func (t *typed[P]) Schema() json.RawMessage { return t.schema }
func (t *typed[P]) Class() Class            { return t.class }

// Run decodes args strictly (unknown fields are reported, so a misspelt
// parameter is not silently ignored) and runs the tool.
func (t *typed[P]) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var p P
	if err := decodeArgs(args, &p); err != nil {
		return errResult("invalid arguments for %s: %v", t.name, err), nil
	}
	return t.run(ctx, p)
}

func decodeArgs(args json.RawMessage, p any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if len(args) > bigArgs {
		if skel, ok := bigargs.Skeleton(args, 4<<10); ok {
			if err := decodeStrict(strings.NewReader(skel), p); err != nil {
				return err
			}
			return json.Unmarshal(args, p)
		}
	}
	return decodeStrict(bytes.NewReader(args), p)
}

// bigArgs is the size past which arguments are checked strictly on their
// skeleton (long strings blanked) and then decoded with json.Unmarshal:
// a json.Decoder reads its input into a buffer of its own first, and for
// a 50 MB write_file content that buffer grew to 128 MB (issue 26).
const bigArgs = 64 << 10

// decodeStrict decodes one value from r, refusing unknown fields.
func decodeStrict(r io.Reader, p any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	return dec.Decode(p)
}

// errResult is a failure the model can act on.
func errResult(format string, a ...any) Result {
	return Result{Output: fmt.Sprintf(format, a...), IsError: true}
}
