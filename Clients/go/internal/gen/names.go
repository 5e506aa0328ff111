package gen

import (
	"strings"
	"unicode"
)

// initialisms are the words Go spells in capitals (golint's list).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true,
	"GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true,
	"QPS": true, "RAM": true, "RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true,
	"TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// words splits "isCFIAppAvailable" into is/CFI/App/Available, "street_n1" into street/n1 and
// "PAYER_ACTION_REQUIRED" into PAYER/ACTION/REQUIRED.
func words(name string) []string {
	runes := []rune(name)
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(runes[start:end]))
		}
		start = -1
	}
	for i, r := range runes {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		switch {
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return out
}

// exported turns a JSON or schema name into an exported Go identifier: "fullName" → FullName,
// "orderID" → OrderID, "popupId" → PopupID, "NOT_SERVING" → NotServing, "1Click" → E1Click.
func exported(name string) string {
	parts := words(name)
	shouting := strings.ToUpper(name) == name
	var b strings.Builder
	for _, w := range parts {
		upper := strings.ToUpper(w)
		switch {
		case initialisms[upper]:
			b.WriteString(upper)
		case w == upper && !shouting && len(w) > 1:
			b.WriteString(w) // an acronym inside a camelCase name: CFI, PBBA
		default:
			lower := []rune(strings.ToLower(w))
			lower[0] = unicode.ToUpper(lower[0])
			b.WriteString(string(lower))
		}
	}
	out := b.String()
	if out == "" {
		return "X"
	}
	if unicode.IsDigit([]rune(out)[0]) {
		out = "E" + out
	}
	return out
}

// typeName is a component's Go type name: the part after the service, as written when it is
// already an exported identifier ("PBBAPopup"), else made one.
func typeName(rest string) string {
	if isIdentifier(rest) && unicode.IsUpper([]rune(rest)[0]) {
		return rest
	}
	return exported(rest)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

// errorName is the Go type of a domain error: its message in CamelCase ending in Error.
func errorName(message string) string {
	name := exported(message)
	if !strings.HasSuffix(name, "Error") {
		name += "Error"
	}
	return name
}

// comment turns text into // lines at the given indent (blank lines become "//").
func comment(text, indent string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t")
		if line == "" {
			b.WriteString(indent + "//\n")
		} else {
			b.WriteString(indent + "// " + line + "\n")
		}
	}
	return b.String()
}

// oneLine squeezes whitespace, for short mentions inside comments.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }
