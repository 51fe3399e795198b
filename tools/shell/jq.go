package shell

import "strings"

// classifyJq reads jq's arguments as jq does: options anywhere, some with
// two values (--arg NAME VALUE, --rawfile NAME FILE), the first operand
// the filter unless -f names a program file, the rest input files unless
// --args or --jsonargs makes them values. Every file it names (input,
// program, --rawfile, --slurpfile, -L library directory) is a read
// checked against the workspace. jq writes nothing and runs nothing.
func classifyJq(args []Word, e *Effect) {
	var operands []Word
	fromFile, positional := false, false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		next := func(n int) []Word { // the n words after this one, as jq takes them
			end := min(i+1+n, len(args))
			vals := args[i+1 : end]
			i = end - 1
			return vals
		}
		switch {
		case !w.Known() && w.MayBeOption():
			e.Blocker = "jq gets an argument keel cannot see, which may be an option that reads a file"
			return
		case v == "-" || !strings.HasPrefix(v, "-") || !w.Known():
			operands = append(operands, w)
		case v == "--arg" || v == "--argjson":
			next(2)
		case v == "--slurpfile" || v == "--rawfile":
			if vals := next(2); len(vals) == 2 {
				e.Reads = append(e.Reads, vals[1])
			}
		case v == "--from-file":
			fromFile = true
			e.Reads = append(e.Reads, next(1)...)
		case v == "--indent" || v == "--library-path":
			vals := next(1)
			if v == "--library-path" {
				e.Reads = append(e.Reads, vals...)
			}
		case v == "--args" || v == "--jsonargs":
			positional = true
		case strings.HasPrefix(v, "--"):
		default: // a cluster of short options; -f and -L take a value
			if j := strings.IndexAny(v, "fL"); j > 0 {
				fromFile = fromFile || v[j] == 'f'
				if v[j] == 'L' && j+1 < len(v) {
					e.Reads = append(e.Reads, Word{Value: v[j+1:]})
				} else {
					e.Reads = append(e.Reads, next(1)...)
				}
			}
		}
	}
	if !fromFile && len(operands) > 0 {
		operands = operands[1:] // the filter
	}
	if !positional {
		e.Reads = append(e.Reads, operands...)
	}
	e.ReadOnly = true
}
