package payrpc

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/payrpc/payrpc-go/wire"
)

// schemaSet validates messages against the OpenRPC document with gojsonschema (draft-07).
// Each schema is wrapped in a root that carries the document's components, so the document's
// $refs (#/components/schemas/<name>) resolve; compiled schemas are cached per method.
type schemaSet struct {
	components    interface{}
	methods       map[string]openrpcMethod
	notifications map[string][]openrpcParam

	mu    sync.Mutex
	cache map[string]*gojsonschema.Schema // nil: nothing to check
}

type openrpcParam struct {
	Name     string      `json:"name"`
	Required bool        `json:"required"`
	Schema   interface{} `json:"schema"`
}

type openrpcMethod struct {
	Name   string         `json:"name"`
	Params []openrpcParam `json:"params"`
	Result *struct {
		Schema interface{} `json:"schema"`
	} `json:"result"`
}

// loadSchemas reads an OpenRPC document.
func loadSchemas(document []byte) (*schemaSet, error) {
	var doc struct {
		Methods       []openrpcMethod `json:"methods"`
		Notifications []struct {
			Name    string         `json:"name"`
			Params  []openrpcParam `json:"params"`
			Aliases []string       `json:"x-aliases"`
		} `json:"x-notifications"`
		Components interface{} `json:"components"`
	}
	if err := json.Unmarshal(document, &doc); err != nil {
		return nil, fmt.Errorf("payrpc: reading the OpenRPC document: %w", err)
	}
	s := &schemaSet{
		components:    doc.Components,
		methods:       map[string]openrpcMethod{},
		notifications: map[string][]openrpcParam{},
		cache:         map[string]*gojsonschema.Schema{},
	}
	for _, m := range doc.Methods {
		s.methods[m.Name] = m
	}
	for _, n := range doc.Notifications {
		s.notifications[n.Name] = n.Params
		for _, alias := range n.Aliases {
			s.notifications[alias] = n.Params
		}
	}
	return s, nil
}

func objectSchema(params []openrpcParam) map[string]interface{} {
	properties := map[string]interface{}{}
	required := []interface{}{}
	for _, p := range params {
		properties[p.Name] = p.Schema
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]interface{}{
		"type": "object", "properties": properties, "required": required, "additionalProperties": false,
	}
}

func arraySchema(params []openrpcParam) map[string]interface{} {
	items := make([]interface{}, len(params))
	minimum := 0
	for i, p := range params {
		items[i] = p.Schema
		if p.Required {
			minimum = i + 1
		}
	}
	return map[string]interface{}{"type": "array", "items": items, "additionalItems": false, "minItems": minimum}
}

// compiled returns the schema of kind ("params", "positional", "result", "notification") of a
// method, or nil when the document does not describe it.
func (s *schemaSet) compiled(kind, name string) (*gojsonschema.Schema, error) {
	key := kind + "\x00" + name
	s.mu.Lock()
	defer s.mu.Unlock()
	if schema, ok := s.cache[key]; ok {
		return schema, nil
	}
	var body interface{}
	switch kind {
	case "result":
		if m, ok := s.methods[name]; ok && m.Result != nil {
			body = m.Result.Schema
		}
	case "params":
		if m, ok := s.methods[name]; ok {
			body = objectSchema(m.Params)
		}
	case "positional":
		if m, ok := s.methods[name]; ok {
			body = arraySchema(m.Params)
		}
	case "notification":
		if params, ok := s.notifications[name]; ok {
			body = objectSchema(params)
		}
	}
	if body == nil {
		s.cache[key] = nil
		return nil, nil
	}
	root := map[string]interface{}{"allOf": []interface{}{body}, "components": s.components}
	loader := gojsonschema.NewSchemaLoader()
	loader.Draft = gojsonschema.Draft7
	loader.AutoDetect = false
	schema, err := loader.Compile(gojsonschema.NewGoLoader(root))
	if err != nil {
		return nil, fmt.Errorf("payrpc: the schema of %s %s does not compile: %w", kind, name, err)
	}
	s.cache[key] = schema
	return schema, nil
}

// check validates instance (JSON) against a schema; what names the message in the error.
func (s *schemaSet) check(kind, name string, instance []byte, what string) error {
	schema, err := s.compiled(kind, name)
	if err != nil || schema == nil {
		return err
	}
	result, err := schema.Validate(gojsonschema.NewBytesLoader(instance))
	if err != nil {
		return &wire.ValidationError{What: what, Violations: []wire.Violation{{Keyword: "json", Message: err.Error()}}}
	}
	if result.Valid() {
		return nil
	}
	return &wire.ValidationError{What: what, Violations: violations(result.Errors())}
}

// violations turns gojsonschema's errors into JSON Pointer violations, sorted, without the
// "must validate all the schemas" summaries that only repeat an inner error.
func violations(errors []gojsonschema.ResultError) []wire.Violation {
	var out []wire.Violation
	for _, e := range errors {
		if e.Type() == "number_all_of" && len(errors) > 1 {
			continue
		}
		pointer := strings.TrimPrefix(e.Context().String("/"), "(root)")
		switch e.Type() {
		case "required", "additional_property_not_allowed":
			if property, ok := e.Details()["property"].(string); ok {
				pointer += "/" + escapePointer(property)
			}
		}
		out = append(out, wire.Violation{Pointer: pointer, Keyword: e.Type(), Message: e.Description()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Keyword < out[j].Keyword
	})
	return out
}

func escapePointer(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// validateParams checks params (without _meta): an object by name, an array by position.
func (s *schemaSet) validateParams(method string, params []byte) error {
	kind := "params"
	if len(params) > 0 && params[0] == '[' {
		kind = "positional"
	}
	if len(params) == 0 {
		params = []byte("{}")
	}
	return s.check(kind, method, params, "params of "+method)
}

func (s *schemaSet) validateResult(method string, result []byte) error {
	return s.check("result", method, result, "result of "+method)
}

func (s *schemaSet) validateNotification(method string, params []byte) error {
	if len(params) == 0 {
		params = []byte("{}")
	}
	return s.check("notification", method, params, "notification "+method)
}
