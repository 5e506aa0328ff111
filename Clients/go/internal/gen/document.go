package gen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// schema is a JSON Schema as decoded by encoding/json.
type schema = map[string]interface{}

// descriptor is an OpenRPC content descriptor (a param of a method or notification).
type descriptor struct {
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
	Summary     string `json:"summary"`
	Schema      schema `json:"schema"`
}

// errorEntry is one entry of a method's errors.
type errorEntry struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    schema `json:"data"`
}

// method is an OpenRPC method with payrpc's x- extensions.
type method struct {
	Name        string       `json:"name"`
	Summary     string       `json:"summary"`
	Description string       `json:"description"`
	Params      []descriptor `json:"params"`
	Result      struct {
		Schema schema `json:"schema"`
	} `json:"result"`
	Errors        []errorEntry `json:"errors"`
	Aliases       []string     `json:"x-aliases"`
	Mutates       bool         `json:"x-mutates"`
	Notifications []string     `json:"x-notifications"`
	SandboxOnly   bool         `json:"x-sandbox-only"`
	Ordered       bool         `json:"x-ordered"`
}

// notification is an entry of the document's x-notifications.
type notification struct {
	Name        string       `json:"name"`
	Summary     string       `json:"summary"`
	Description string       `json:"description"`
	Params      []descriptor `json:"params"`
	Aliases     []string     `json:"x-aliases"`
}

// document is the part of the OpenRPC document the generator reads.
type document struct {
	Methods       []method       `json:"methods"`
	Notifications []notification `json:"x-notifications"`
	Components    struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

// model is one entry of components.schemas, as a Go type of its service's package.
type model struct {
	name   string // the full schema name, "tatra.Contact"
	pkg    string // the Go package (service)
	goName string
	schema schema
	kind   string // "object", "enum" or "alias"
	hidden bool   // a method's params struct of the same name stands for it
}

// domainError is one domain error code, with the methods that return it.
type domainError struct {
	code    int
	goName  string
	entry   errorEntry
	methods []string
}

// pkg is everything generated into one service package.
type pkg struct {
	name          string
	models        []*model
	methods       []method
	notifications []notification
	errors        []*domainError
	// paramTypes maps a method name to the Go type of its params ("" when it has none) and
	// whether the generator writes that struct itself (false: a component of the same shape).
	paramTypes map[string]paramType
	taken      map[string]string // Go identifiers at package level → what took them
}

type paramType struct {
	goName string
	emit   bool
}

// gatewayCodes are the JSON-RPC and payrpc gateway codes, which are not domain errors.
func isGatewayCode(code int) bool { return code >= -32768 && code <= -32000 }

// world is the parsed document: models by name and packages by service.
type world struct {
	doc    document
	raw    []byte
	models map[string]*model
	pkgs   map[string]*pkg
}

func splitName(name string) (string, string) {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "rpc", name
}

func modelKind(s schema) string {
	if _, ok := s["properties"]; ok {
		return "object"
	}
	_, extra := s["additionalProperties"]
	if s["type"] == "object" && !extra && s["oneOf"] == nil && s["anyOf"] == nil && s["allOf"] == nil && s["$ref"] == nil {
		return "object"
	}
	if values, ok := s["enum"].([]interface{}); ok && len(values) > 0 {
		for _, v := range values {
			if _, ok := v.(string); !ok {
				return "alias"
			}
		}
		return "enum"
	}
	return "alias"
}

func validPackage(name string) bool {
	if !isIdentifier(name) || strings.ToLower(name) != name {
		return false
	}
	switch name {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
		"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var", "generated", "wire":
		return false
	}
	return true
}

func load(raw []byte) (*world, error) {
	w := &world{raw: raw, models: map[string]*model{}, pkgs: map[string]*pkg{}}
	if err := json.Unmarshal(raw, &w.doc); err != nil {
		return nil, fmt.Errorf("reading the OpenRPC document: %w", err)
	}
	names := make([]string, 0, len(w.doc.Components.Schemas))
	for name := range w.doc.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		service, rest := splitName(name)
		p, err := w.pkg(service)
		if err != nil {
			return nil, err
		}
		s := w.doc.Components.Schemas[name]
		m := &model{name: name, pkg: service, goName: typeName(rest), schema: s, kind: modelKind(s)}
		w.models[name] = m
		p.models = append(p.models, m)
	}
	for _, m := range w.doc.Methods {
		if strings.HasPrefix(m.Name, "$/") || !strings.Contains(m.Name, ".") {
			continue
		}
		service, _ := splitName(m.Name)
		p, err := w.pkg(service)
		if err != nil {
			return nil, err
		}
		p.methods = append(p.methods, m)
	}
	for _, n := range w.doc.Notifications {
		if !strings.Contains(n.Name, ".") {
			continue
		}
		service, _ := splitName(n.Name)
		p, err := w.pkg(service)
		if err != nil {
			return nil, err
		}
		p.notifications = append(p.notifications, n)
	}
	if err := w.resolveParams(); err != nil {
		return nil, err
	}
	w.collectErrors()
	return w, w.checkNames()
}

func (w *world) pkg(name string) (*pkg, error) {
	if !validPackage(name) {
		return nil, fmt.Errorf("service name %q is not a usable Go package name", name)
	}
	if p, ok := w.pkgs[name]; ok {
		return p, nil
	}
	p := &pkg{name: name, paramTypes: map[string]paramType{}, taken: map[string]string{}}
	w.pkgs[name] = p
	return p, nil
}

func (w *world) sortedPkgs() []*pkg {
	names := make([]string, 0, len(w.pkgs))
	for name := range w.pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]*pkg, len(names))
	for i, name := range names {
		out[i] = w.pkgs[name]
	}
	return out
}

// methodGoName is the Go method of an RPC method: "tatra.executePayment" → ExecutePayment,
// "sandbox.tatra.resetProfile" → TatraResetProfile.
func methodGoName(name string) string {
	_, rest := splitName(name)
	var b strings.Builder
	for _, part := range strings.Split(rest, ".") {
		b.WriteString(exported(part))
	}
	return b.String()
}

// resolveParams names each method's params struct <Method>Params. A component of that name
// in the same package with the same properties is the struct (tatra.ExecutePaymentParams); a
// component of that name that is not an object (a oneOf) gives way to the struct.
func (w *world) resolveParams() error {
	for _, p := range w.sortedPkgs() {
		byGoName := map[string]*model{}
		for _, m := range p.models {
			byGoName[m.goName] = m
		}
		for _, m := range p.methods {
			if len(m.Params) == 0 {
				p.paramTypes[m.Name] = paramType{}
				continue
			}
			goName := methodGoName(m.Name) + "Params"
			existing := byGoName[goName]
			switch {
			case existing == nil:
				p.paramTypes[m.Name] = paramType{goName: goName, emit: true}
			case existing.kind == "object" && sameShape(existing.schema, m.Params):
				p.paramTypes[m.Name] = paramType{goName: goName}
			case existing.kind == "alias":
				existing.hidden = true
				p.paramTypes[m.Name] = paramType{goName: goName, emit: true}
			default:
				return fmt.Errorf("%s: its params struct %s.%s clashes with the component %s of another shape", m.Name, p.name, goName, existing.name)
			}
		}
	}
	return nil
}

func sameShape(s schema, params []descriptor) bool {
	props, _ := s["properties"].(map[string]interface{})
	if len(props) != len(params) {
		return false
	}
	required := map[string]bool{}
	if list, ok := s["required"].([]interface{}); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	for _, d := range params {
		if _, ok := props[d.Name]; !ok || required[d.Name] != d.Required {
			return false
		}
	}
	return true
}

// errorService is the package whose errors a method returns: tatra for tatra.authorize and
// for sandbox.tatra.resetProfile.
func errorService(name string) string {
	parts := strings.Split(name, ".")
	if parts[0] == "sandbox" && len(parts) > 2 {
		return parts[1]
	}
	return parts[0]
}

// collectErrors gives each domain code one Go type in the package of the service that owns it.
func (w *world) collectErrors() {
	byCode := map[int]*domainError{}
	owner := map[int]string{}
	ordered := make([]method, 0, len(w.doc.Methods))
	for _, m := range w.doc.Methods {
		if !strings.HasPrefix(m.Name, "sandbox.") {
			ordered = append(ordered, m)
		}
	}
	for _, m := range w.doc.Methods {
		if strings.HasPrefix(m.Name, "sandbox.") {
			ordered = append(ordered, m)
		}
	}
	for _, m := range ordered {
		if !strings.Contains(m.Name, ".") {
			continue
		}
		for _, e := range m.Errors {
			if isGatewayCode(e.Code) {
				continue
			}
			if byCode[e.Code] == nil {
				byCode[e.Code] = &domainError{code: e.Code, entry: e}
				owner[e.Code] = errorService(m.Name)
			}
			byCode[e.Code].methods = append(byCode[e.Code].methods, m.Name)
		}
	}
	codes := make([]int, 0, len(byCode))
	for code := range byCode {
		codes = append(codes, code)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(codes)))
	for _, code := range codes {
		p, err := w.pkg(owner[code])
		if err != nil {
			continue
		}
		e := byCode[code]
		e.goName = errorName(e.entry.Message)
		for _, other := range p.errors {
			if other.goName == e.goName {
				e.goName = fmt.Sprintf("%s%d", strings.TrimSuffix(e.goName, "Error"), -code) + "Error"
			}
		}
		e.methods = uniqueSorted(e.methods)
		p.errors = append(p.errors, e)
	}
}

func uniqueSorted(list []string) []string {
	sort.Strings(list)
	out := list[:0]
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// checkNames fails when two package-level Go identifiers of one package collide.
func (w *world) checkNames() error {
	for _, p := range w.sortedPkgs() {
		claim := func(name, what string) error {
			if other, ok := p.taken[name]; ok {
				return fmt.Errorf("package %s: the Go name %s is taken by both %s and %s", p.name, name, other, what)
			}
			p.taken[name] = what
			return nil
		}
		for _, reserved := range []string{"Service", "New", "Errors", "Notifications", "ServiceError"} {
			if err := claim(reserved, "the generated package itself"); err != nil {
				return err
			}
		}
		for _, m := range p.models {
			if m.hidden {
				continue
			}
			if err := claim(m.goName, m.name); err != nil {
				return err
			}
			if m.kind == "enum" {
				for _, v := range m.schema["enum"].([]interface{}) {
					if err := claim(m.goName+exported(v.(string)), fmt.Sprintf("%s value %q", m.name, v)); err != nil {
						return err
					}
				}
			}
		}
		for _, m := range p.methods {
			if t := p.paramTypes[m.Name]; t.emit {
				if err := claim(t.goName, "the params of "+m.Name); err != nil {
					return err
				}
			}
		}
		for _, n := range p.notifications {
			if err := claim(notificationType(n.Name), "the params of notification "+n.Name); err != nil {
				return err
			}
			if err := claim(notificationConst(n.Name), "the name of notification "+n.Name); err != nil {
				return err
			}
		}
		for _, e := range p.errors {
			if err := claim(e.goName, fmt.Sprintf("error %d", e.code)); err != nil {
				return err
			}
			if err := claim(errorCodeConst(e.goName), fmt.Sprintf("the code of error %d", e.code)); err != nil {
				return err
			}
		}
		seen := map[string]string{}
		for _, m := range p.methods {
			goName := methodGoName(m.Name)
			if other, ok := seen[goName]; ok {
				return fmt.Errorf("methods %s and %s both become %s.Service.%s", other, m.Name, p.name, goName)
			}
			seen[goName] = m.Name
		}
	}
	return nil
}

func notificationType(name string) string  { return methodGoName(name) + "Notification" }
func notificationConst(name string) string { return "Notification" + methodGoName(name) }

func errorCodeConst(goName string) string { return "Code" + strings.TrimSuffix(goName, "Error") }
