package gen

import (
	"fmt"
	"sort"
	"strings"
)

// decimalPattern marks a decimal string (money) in the schemas.
const decimalPattern = `^-?(0(\.[0-9]{1,18})?|[1-9](\.[0-9]{1,17})?|[1-9][0-9]{1}(\.[0-9]{1,16})?|[1-9][0-9]{2}(\.[0-9]{1,15})?|[1-9][0-9]{3}(\.[0-9]{1,14})?|[1-9][0-9]{4}(\.[0-9]{1,13})?|[1-9][0-9]{5}(\.[0-9]{1,12})?|[1-9][0-9]{6}(\.[0-9]{1,11})?|[1-9][0-9]{7}(\.[0-9]{1,10})?|[1-9][0-9]{8}(\.[0-9]{1,9})?|[1-9][0-9]{9}(\.[0-9]{1,8})?|[1-9][0-9]{10}(\.[0-9]{1,7})?|[1-9][0-9]{11}(\.[0-9]{1,6})?|[1-9][0-9]{12}(\.[0-9]{1,5})?|[1-9][0-9]{13}(\.[0-9]{1,4})?|[1-9][0-9]{14}(\.[0-9]{1,3})?|[1-9][0-9]{15}(\.[0-9]{1,2})?|[1-9][0-9]{16}(\.[0-9]{1,1})?|[1-9][0-9]{17})$`

// unwrap returns X for {"allOf": [X], "description": ...} (a $ref with its own description).
func unwrap(s schema) schema {
	for {
		list, ok := s["allOf"].([]interface{})
		if !ok || len(list) != 1 {
			return s
		}
		for _, key := range []string{"type", "properties", "$ref", "anyOf", "oneOf", "enum"} {
			if _, ok := s[key]; ok {
				return s
			}
		}
		inner, ok := list[0].(map[string]interface{})
		if !ok {
			return s
		}
		s = inner
	}
}

// nullable returns the non-null branch of anyOf/oneOf [X, {"type": "null"}] or of
// "type": [X, "null"], else nil.
func nullable(s schema) schema {
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, ok := s[key].([]interface{})
		if !ok || len(branches) != 2 {
			continue
		}
		var other schema
		nulls := 0
		for _, b := range branches {
			bs, _ := b.(map[string]interface{})
			if len(bs) == 1 && bs["type"] == "null" {
				nulls++
			} else {
				other = bs
			}
		}
		if nulls == 1 && other != nil {
			return unwrap(other)
		}
	}
	if types, ok := s["type"].([]interface{}); ok && len(types) == 2 {
		rest := schema{}
		for k, v := range s {
			rest[k] = v
		}
		for _, t := range types {
			if t != "null" {
				rest["type"] = t
				return rest
			}
		}
	}
	return nil
}

// file collects one generated Go file: its imports and body.
type file struct {
	w       *world
	pkg     *pkg
	imports map[string]bool
	body    strings.Builder
}

func newFile(w *world, p *pkg) *file { return &file{w: w, pkg: p, imports: map[string]bool{}} }

func (f *file) use(path string) { f.imports[path] = true }

func (f *file) printf(format string, args ...interface{}) { fmt.Fprintf(&f.body, format, args...) }

// ref returns the model a {"$ref": "#/components/schemas/<name>"} schema names.
func (f *file) ref(s schema, where string) (*model, error) {
	raw, ok := s["$ref"]
	if !ok {
		return nil, nil
	}
	const prefix = "#/components/schemas/"
	text, _ := raw.(string)
	m := f.w.models[strings.TrimPrefix(text, prefix)]
	if !strings.HasPrefix(text, prefix) || m == nil {
		return nil, fmt.Errorf("%s: unsupported $ref %v (only %s<name> of this document)", where, raw, prefix)
	}
	return m, nil
}

// modelRef is the Go name of a model as seen from this file's package.
func (f *file) modelRef(m *model) string {
	if m.pkg == f.pkg.name {
		return m.goName
	}
	f.use(serviceImport(m.pkg))
	return m.pkg + "." + m.goName
}

// goType is the Go type of a schema; where names it in error messages.
func (f *file) goType(s schema, where string) (string, error) {
	s = unwrap(s)
	if m, err := f.ref(s, where); err != nil || m != nil {
		if err != nil {
			return "", err
		}
		return f.modelRef(m), nil
	}
	if inner := nullable(s); inner != nil {
		t, err := f.goType(inner, where)
		return optional(t), err
	}
	switch s["type"] {
	case "string":
		if s["pattern"] == decimalPattern {
			f.use(wireImport())
			return "wire.Decimal", nil
		}
		if s["format"] == "date-time" {
			f.use("time")
			return "time.Time", nil
		}
		return "string", nil
	case "integer":
		return "int64", nil
	case "number":
		return "float64", nil
	case "boolean":
		return "bool", nil
	case "array":
		items, _ := s["items"].(map[string]interface{})
		t, err := f.goType(items, where+"/items")
		return "[]" + t, err
	case "object":
		if extra, ok := s["additionalProperties"].(map[string]interface{}); ok && s["properties"] == nil {
			t, err := f.goType(extra, where+"/additionalProperties")
			return "map[string]" + t, err
		}
		return "map[string]interface{}", nil
	}
	if _, ok := s["oneOf"]; ok {
		f.use("encoding/json")
		return "json.RawMessage", nil
	}
	if _, ok := s["anyOf"]; ok {
		f.use("encoding/json")
		return "json.RawMessage", nil
	}
	return "interface{}", nil
}

// optional is the type of a field that may be absent: a pointer, except for types that
// already have a nil.
func optional(t string) string {
	if strings.HasPrefix(t, "*") || strings.HasPrefix(t, "[]") || strings.HasPrefix(t, "map[") ||
		t == "interface{}" || t == "json.RawMessage" {
		return t
	}
	return "*" + t
}

// fieldSpec is one field of a generated struct.
type fieldSpec struct {
	json     string
	required bool
	schema   schema
	doc      string
}

// structBody writes the fields of a struct; it fails when two JSON names become one Go name.
func (f *file) structBody(fields []fieldSpec, where string) error {
	seen := map[string]string{}
	for _, fs := range fields {
		goName := exported(fs.json)
		if other, ok := seen[goName]; ok {
			return fmt.Errorf("%s: properties %q and %q both become the field %s", where, other, fs.json, goName)
		}
		seen[goName] = fs.json
		t, err := f.goType(fs.schema, where+"/"+fs.json)
		if err != nil {
			return err
		}
		tag := fs.json
		if !fs.required {
			t = optional(t)
			tag += ",omitempty"
		}
		doc := fs.doc
		if doc == "" {
			doc, _ = fs.schema["description"].(string)
		}
		if doc != "" {
			f.body.WriteString(comment(doc, "\t"))
		}
		f.printf("\t%s %s `json:%q`\n", goName, t, tag)
	}
	return nil
}

// objectFields are the properties of an object schema, sorted by JSON name.
func objectFields(s schema) []fieldSpec {
	props, _ := s["properties"].(map[string]interface{})
	required := map[string]bool{}
	if list, ok := s["required"].([]interface{}); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]fieldSpec, 0, len(names))
	for _, name := range names {
		ps, _ := props[name].(map[string]interface{})
		out = append(out, fieldSpec{json: name, required: required[name], schema: ps})
	}
	return out
}

// descriptorFields are the fields of a params struct, in the document's order.
func descriptorFields(params []descriptor) []fieldSpec {
	out := make([]fieldSpec, 0, len(params))
	for _, d := range params {
		doc := d.Description
		if doc == "" {
			doc = d.Summary
		}
		out = append(out, fieldSpec{json: d.Name, required: d.Required, schema: d.Schema, doc: doc})
	}
	return out
}
