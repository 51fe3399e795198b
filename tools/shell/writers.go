package shell

import (
	"path"
	"strings"
)

// fileOpts are the valued options of the file-changing programs.
var fileOpts = map[string]opts{
	"tee":     {},
	"cp":      {short: "tS", long: []string{"target-directory", "suffix"}},
	"mv":      {short: "tS", long: []string{"target-directory", "suffix"}},
	"install": {short: "tSmogC", long: []string{"target-directory", "suffix", "mode", "owner", "group"}},
	"ln":      {short: "tS", long: []string{"target-directory", "suffix"}},
	"touch":   {short: "rdt", long: []string{"reference", "date", "time"}},
	"mkdir":   {short: "m", long: []string{"mode", "context"}},
	"rmdir":   {}, "rm": {}, "unlink": {}, "shred": {short: "nsu", long: []string{"iterations", "size", "random-source"}},
	"truncate": {short: "rs", long: []string{"reference", "size"}},
	"chmod":    {long: []string{"reference"}}, "chown": {long: []string{"reference", "from"}}, "chgrp": {long: []string{"reference"}},
	"curl": {short: "odHXAeEuUxTFbcKKr", long: []string{"output", "data", "header", "request", "user-agent", "referer", "user", "proxy",
		"upload-file", "form", "cookie", "cookie-jar", "config", "output-dir", "url", "range"}},
	"wget": {short: "OPoaeUi", long: []string{"output-document", "directory-prefix", "output-file", "append-output", "user-agent", "input-file"}},
}

// writes records the files a file-changing program writes as its job.
func writes(prog string, args []Word, e *Effect) {
	o, ok := fileOpts[prog]
	switch {
	case prog == "sed":
		p := readOnly["sed"].opts.parse(args)
		if p.has("-i", "--in-place") {
			e.Writes = append(e.Writes, sedFiles(p)...)
		}
		return
	case prog == "dd":
		for _, w := range args {
			if v, ok := strings.CutPrefix(w.Value, "of="); ok {
				e.Writes = append(e.Writes, Word{Value: v, Dynamic: w.Dynamic, Glob: w.Glob})
			}
		}
		return
	case !ok:
		return
	}
	p := o.parse(args)
	e.Writes = append(e.Writes, writeTargets(prog, p)...)
	e.Reads = append(e.Reads, p.value("-r", "--reference")...)
}

// writeTargets are the files prog writes given its parsed arguments.
func writeTargets(prog string, p parsed) []Word {
	ops := p.operands
	switch prog {
	case "cp", "install", "ln":
		if t := p.value("-t", "--target-directory"); len(t) > 0 {
			return t
		}
		if prog == "ln" && len(ops) == 1 {
			return []Word{{Value: path.Base(ops[0].Value), Dynamic: ops[0].Dynamic}}
		}
		if prog == "install" && p.has("-d", "--directory") {
			return ops
		}
		if len(ops) >= 2 {
			return ops[len(ops)-1:]
		}
		return nil
	case "mv":
		return append(ops, p.value("-t", "--target-directory")...) // the sources go away too
	case "chmod", "chown", "chgrp":
		if len(p.value("--reference")) == 0 && len(ops) > 0 {
			return ops[1:] // the first operand is the mode or owner
		}
		return ops
	case "curl":
		return p.value("-o", "--output")
	case "wget":
		return p.value("-O", "--output-document")
	}
	return ops
}
