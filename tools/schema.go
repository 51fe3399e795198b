package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// schemaFor generates the JSON schema of a params struct from its json,
// description and enum tags, so each tool's schema cannot drift from the
// struct its Run decodes into. A field is required unless its json tag has
// omitempty.
// enums overrides the allowed values of fields by JSON name.
func schemaFor(params any, enums map[string][]string) json.RawMessage {
	s := typeSchema(reflect.TypeOf(params), enums)
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tools: schema for %T: %v", params, err)) // programming error
	}
	return b
}

func typeSchema(t reflect.Type, enums map[string][]string) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem(), enums)}
	case reflect.Struct:
		return structSchema(t, enums)
	}
	panic(fmt.Sprintf("tools: no schema for kind %s", t.Kind()))
}

func structSchema(t reflect.Type, enums map[string][]string) map[string]any {
	props := map[string]any{}
	required := []string{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := typeSchema(f.Type, enums)
		if d := f.Tag.Get("description"); d != "" {
			p["description"] = d
		}
		if e := f.Tag.Get("enum"); e != "" {
			p["enum"] = strings.Split(e, ",")
		}
		if e, ok := enums[name]; ok {
			p["enum"] = e
		}
		props[name] = p
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}
