package discipline

import (
	"fmt"
	"slices"
)

// SettingKind is the shape of a setting's value.
type SettingKind int

// The shapes a guard's setting may take.
const (
	SettingInt  SettingKind = iota // a threshold: 0 disables
	SettingBool                    // a switch
	SettingList                    // a list of words (commands, suffixes)
)

// Setting is one threshold, switch or list of a guard: its key in the
// config's [discipline] table, its default, and the line the config
// template shows for it. A guard declares its settings in its own file
// (intSetting, boolSetting, listSetting) and lists them in its Guard;
// config builds its [discipline] keys from Settings, so a guard's
// setting is declared once.
type Setting struct {
	Key  string
	Doc  string
	Kind SettingKind
	// The default, in the field of Kind.
	defInt  int
	defBool bool
	defList []string
	slot    int // index in the Values array of its kind, set by the registry
}

func intSetting(key string, def int, doc string) *Setting {
	return &Setting{Key: key, Doc: doc, Kind: SettingInt, defInt: def}
}

func boolSetting(key string, def bool, doc string) *Setting {
	return &Setting{Key: key, Doc: doc, Kind: SettingBool, defBool: def}
}

func listSetting(key string, def []string, doc string) *Setting {
	return &Setting{Key: key, Doc: doc, Kind: SettingList, defList: def}
}

// Default returns the setting's shipped value: an int, a bool or a
// []string (a fresh copy).
func (s Setting) Default() any {
	switch s.Kind {
	case SettingInt:
		return s.defInt
	case SettingBool:
		return s.defBool
	}
	return slices.Clone(s.defList)
}

// Bounds of the Values arrays; the registry refuses more (a test checks).
const (
	maxInts  = 48
	maxBools = 16
	maxLists = 8
)

// Values holds the value of every guard setting. It is a plain value: a
// copy is independent of the original (lists are replaced, never written
// in place). The zero Values turns every guard off.
type Values struct {
	ints  [maxInts]int
	bools [maxBools]bool
	lists [maxLists][]string
}

// DefaultValues returns every setting at its shipped default.
func DefaultValues() Values {
	var v Values
	for _, s := range registered().settings {
		v.setDefault(s)
	}
	return v
}

func (v *Values) setDefault(s *Setting) {
	switch s.Kind {
	case SettingInt:
		v.ints[s.slot] = s.defInt
	case SettingBool:
		v.bools[s.slot] = s.defBool
	default:
		v.lists[s.slot] = slices.Clone(s.defList)
	}
}

// Settings lists every guard's settings in registry order.
func Settings() []Setting {
	all := registered().settings
	out := make([]Setting, len(all))
	for i, s := range all {
		out[i] = *s
		out[i].defList = slices.Clone(s.defList)
	}
	return out
}

// Ptr returns a pointer to the value of the setting with key (*int, *bool
// or *[]string), or nil for a key no guard declares: config reads and
// writes the [discipline] table through it.
func (v *Values) Ptr(key string) any {
	s, ok := registered().byKey[key]
	if !ok {
		return nil
	}
	switch s.Kind {
	case SettingInt:
		return &v.ints[s.slot]
	case SettingBool:
		return &v.bools[s.slot]
	}
	return &v.lists[s.slot]
}

// Set sets the setting with key to val (an int, a bool or a []string
// matching its kind). A key no guard declares, or a value of another
// kind, is a programming error and panics.
func (v *Values) Set(key string, val any) {
	switch p := v.Ptr(key).(type) {
	case *int:
		*p = val.(int)
	case *bool:
		*p = val.(bool)
	case *[]string:
		*p = slices.Clone(val.([]string))
	default:
		panic(fmt.Sprintf("discipline: no setting %q", key))
	}
}

// Int returns the integer setting with key; it panics for an unknown key.
func (v Values) Int(key string) int { return v.ints[v.lookup(key, SettingInt).slot] }

// Bool returns the switch with key; it panics for an unknown key.
func (v Values) Bool(key string) bool { return v.bools[v.lookup(key, SettingBool).slot] }

// List returns the list setting with key; it panics for an unknown key.
func (v Values) List(key string) []string { return v.lists[v.lookup(key, SettingList).slot] }

func (v Values) lookup(key string, k SettingKind) *Setting {
	s, ok := registered().byKey[key]
	if !ok || s.Kind != k {
		panic(fmt.Sprintf("discipline: no setting %q of that kind", key))
	}
	return s
}

// Clone returns a copy whose lists share nothing with v's.
func (v Values) Clone() Values {
	for i := range v.lists {
		v.lists[i] = slices.Clone(v.lists[i])
	}
	return v
}

// num, on and list read a guard's own setting by its handle.
func (v *Values) num(s *Setting) int       { return v.ints[s.slot] }
func (v *Values) on(s *Setting) bool       { return v.bools[s.slot] }
func (v *Values) list(s *Setting) []string { return v.lists[s.slot] }
