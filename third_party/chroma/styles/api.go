package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// Patched for keel (see third_party/README.md): the embedded XML styles are
// parsed on the first Get of a name that is not registered, or Names, not in
// init. Register does not load them, and a style registered first is not
// replaced by an embedded one of the same name (as when init ran first).
// Code that reads Registry directly sees only registered styles until then.
var Registry = map[string]*chroma.Style{}

// Fallback style. Reassign to change the default fallback style. It is
// "swapoff" once the embedded styles are loaded (unless reassigned before).
var Fallback *chroma.Style

var (
	registryMu sync.RWMutex
	loaded     bool
)

// load parses the embedded styles into Registry; registryMu must be held.
func load() {
	if loaded {
		return
	}
	loaded = true
	files, err := fs.ReadDir(embedded, ".")
	if err != nil {
		panic(err)
	}
	for _, file := range files {
		if file.IsDir() {
			continue
		}
		r, err := embedded.Open(file.Name())
		if err != nil {
			panic(err)
		}
		style, err := chroma.NewXMLStyle(r)
		if err != nil {
			panic(err)
		}
		if _, ok := Registry[style.Name]; !ok {
			Registry[style.Name] = style
		}
		if style.Name == "swapoff" && Fallback == nil {
			Fallback = style
		}
		_ = r.Close()
	}
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	registryMu.Lock()
	defer registryMu.Unlock()
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	load()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	registryMu.RLock()
	style, ok := Registry[name]
	done := loaded
	registryMu.RUnlock()
	if ok {
		return style
	}
	if !done {
		registryMu.Lock()
		load()
		style, ok = Registry[name]
		registryMu.Unlock()
		if ok {
			return style
		}
	}
	return Fallback
}
