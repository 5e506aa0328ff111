package gen

import (
	"fmt"
	"strings"
)

// servicesFile writes the generated package: Services (what payrpc.Client embeds), the error and
// notification decoders over every service, the list of methods and the embedded document.
func (w *world) servicesFile() *file {
	root := &pkg{name: OutPackage}
	f := newFile(w, root)
	f.use("encoding/json")
	f.use("embed")
	f.use(wireImport())
	pkgs := w.sortedPkgs()
	for _, p := range pkgs {
		f.use(serviceImport(p.name))
	}
	f.printf("// Package generated is code generated from Schemas/openrpc.json, as is each of its\n")
	f.printf("// subpackages (one per service). Services holds one generated client per service\n")
	f.printf("// (payrpc.Client embeds it, so client.Tatra.ExecutePayment works), and the decoders of\n")
	f.printf("// domain errors and notifications cover every service.\n")
	f.printf("package %s\n\n", OutPackage) // replaced below: render writes the clause itself
	f.printf("// Services holds the generated methods of every service.\ntype Services struct {\n")
	for _, p := range pkgs {
		f.printf("\t// %s calls the %s methods.\n\t%s *%s.Service\n", fieldName(p.name), p.name, fieldName(p.name), p.name)
	}
	f.printf("}\n\n")
	f.printf("// New returns the methods of every service, called through c.\nfunc New(c wire.Caller) Services {\n\treturn Services{\n")
	for _, p := range pkgs {
		f.printf("\t\t%s: %s.New(c),\n", fieldName(p.name), p.name)
	}
	f.printf("\t}\n}\n\n")
	var tables, decoders []string
	for _, p := range pkgs {
		tables = append(tables, p.name+".Errors")
		decoders = append(decoders, p.name+".Notifications")
	}
	f.printf("// DecodeError returns the most specific error for an error the server answered: a\n")
	f.printf("// generated domain error type, a *wire.DomainError for an unknown domain code, or e.\n")
	f.printf("func DecodeError(e *wire.RPCError) error {\n\treturn wire.DecodeError(e, %s)\n}\n\n", strings.Join(tables, ", "))
	f.printf("var notificationDecoders = []map[string]func(json.RawMessage) (interface{}, error){%s}\n\n", strings.Join(decoders, ", "))
	f.printf("// DecodeNotification returns the params of a notification as its generated struct; known is\n")
	f.printf("// false for a method no service declares.\n")
	f.printf("func DecodeNotification(method string, params json.RawMessage) (value interface{}, known bool, err error) {\n")
	f.printf("\tfor _, table := range notificationDecoders {\n\t\tif decode, ok := table[method]; ok {\n")
	f.printf("\t\t\tvalue, err = decode(params)\n\t\t\treturn value, true, err\n\t\t}\n\t}\n\treturn nil, false, nil\n}\n\n")
	f.printf("// Methods lists every method the generated services call, in the document's order.\nvar Methods = []string{\n")
	for _, m := range w.doc.Methods {
		if strings.HasPrefix(m.Name, "$/") || !strings.Contains(m.Name, ".") {
			continue
		}
		f.printf("\t%q,\n", m.Name)
	}
	f.printf("}\n\n")
	f.printf("// Document is the OpenRPC document the code was generated from; the client validates\n")
	f.printf("// params, results and notifications against it.\n//\n//go:embed openrpc.json\nvar Document []byte\n")
	return f
}

// Render returns every generated file (path relative to the out folder → content) for the
// OpenRPC document raw.
func Render(raw []byte) (map[string][]byte, error) {
	w, err := load(raw)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{"openrpc.json": raw}
	for _, p := range w.sortedPkgs() {
		parts := []struct {
			name  string
			build func(*pkg) (*file, error)
		}{
			{"doc.go", func(p *pkg) (*file, error) { return w.docFile(p), nil }},
			{"models.go", w.modelsFile},
			{"params.go", w.paramsFile},
			{"service.go", w.serviceFile},
			{"errors.go", w.errorsFile},
			{"notifications.go", w.notificationsFile},
		}
		for _, part := range parts {
			f, err := part.build(p)
			if err != nil {
				return nil, err
			}
			path := p.name + "/" + part.name
			if part.name == "params.go" && f.body.Len() == 0 {
				continue
			}
			var src []byte
			if part.name == "doc.go" {
				src, err = renderDoc(f, p.name)
			} else {
				src, err = f.render(p.name, path)
			}
			if err != nil {
				return nil, err
			}
			files[path] = src
		}
	}
	f := w.servicesFile()
	body := f.body.String()
	// The package comment goes above the clause: split it off the body.
	clause := "package " + OutPackage + "\n\n"
	i := strings.Index(body, clause)
	docText, rest := body[:i], body[i+len(clause):]
	f.body.Reset()
	f.body.WriteString(rest)
	src, err := f.renderWithDoc(OutPackage, "services.go", docText)
	if err != nil {
		return nil, err
	}
	files["services.go"] = src
	return files, nil
}

func renderDoc(f *file, name string) ([]byte, error) {
	text := Header + "\n" + f.body.String() + fmt.Sprintf("package %s\n", name)
	return []byte(text), nil
}

// renderWithDoc is render with a package comment above the clause.
func (f *file) renderWithDoc(packageName, path, doc string) ([]byte, error) {
	src, err := f.render(packageName, path)
	if err != nil {
		return nil, err
	}
	text := string(src)
	clause := "package " + packageName + "\n"
	return []byte(strings.Replace(text, clause, doc+clause, 1)), nil
}
