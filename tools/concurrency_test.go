package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// Read-only tools may run in parallel over one Workspace (run with -race).
func TestReadOnlyToolsConcurrently(t *testing.T) {
	files := map[string]string{".gitignore": "*.tmp\n"}
	for i := range 20 {
		files[fmt.Sprintf("d%d/f%d.go", i%4, i)] = fmt.Sprintf("package d\n// marker %d\n", i)
	}
	ws := newTestWS(t, files)
	ts := New(ws, Options{})
	calls := []struct {
		name string
		args m
	}{
		{NameReadFile, m{"path": "d1/f1.go"}},
		{NameListDir, m{"path": "d2"}},
		{NameGlob, m{"pattern": "**/*.go"}},
		{NameGrep, m{"pattern": "marker"}},
	}
	var wg sync.WaitGroup
	for i := range 40 {
		c := calls[i%len(calls)]
		tool, _ := Lookup(ts, c.name)
		wg.Go(func() {
			raw, _ := json.Marshal(c.args)
			res, err := tool.Run(context.Background(), raw)
			if err != nil || res.IsError {
				t.Errorf("%s: %v %s", c.name, err, res.Output)
			}
		})
	}
	wg.Wait()
}
