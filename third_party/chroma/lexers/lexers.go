package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// Patched for keel (see third_party/README.md): the embedded XML lexers are
// registered on the first lookup through this package (Get, Match, Names,
// Analyse, MatchMimeType), not in init, so a program that links chroma but
// does not highlight pays nothing at start-up. Code that reads the fields of
// GlobalLexerRegistry directly must call one of those functions first.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	registryMu sync.Mutex
	loaded     bool           // the embedded lexers are in GlobalLexerRegistry
	pending    []chroma.Lexer // lexers Register was given before the load
	hooks      []func(*chroma.LexerRegistry)
	loadOnce   sync.Once
)

// afterLoad runs f on the registry once the embedded lexers are registered
// (for what init used to do to them, such as setting an analyser).
func afterLoad(f func(*chroma.LexerRegistry)) {
	hooks = append(hooks, f)
}

// global returns GlobalLexerRegistry with the embedded lexers loaded.
func global() *chroma.LexerRegistry {
	loadOnce.Do(func() {
		registryMu.Lock()
		defer registryMu.Unlock()
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		// The original order: every XML lexer, then the lexers written in Go
		// (which replace an XML lexer of the same name), as init did.
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		for _, lexer := range pending {
			GlobalLexerRegistry.Register(lexer)
		}
		for _, f := range hooks {
			f(GlobalLexerRegistry)
		}
		pending, hooks, loaded = nil, nil, true
	})
	return GlobalLexerRegistry
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return global().Names(withAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return global().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return global().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return global().Match(filename)
}

// Register a Lexer with the global registry. Before the embedded lexers are
// loaded it only remembers the lexer (and points it at the registry); the
// load registers it after them, as the original init order did.
func Register(lexer chroma.Lexer) chroma.Lexer {
	registryMu.Lock()
	defer registryMu.Unlock()
	if !loaded {
		lexer.SetRegistry(GlobalLexerRegistry)
		pending = append(pending, lexer)
		return lexer
	}
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return global().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
