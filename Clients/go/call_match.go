package payrpc

import (
	"encoding/json"

	"github.com/payrpc/payrpc-go/generated/rpc"
)

// CallMatch says which entries of the call journal a question is about; every field set must
// hold, and the zero CallMatch matches every entry. It is the generated rpc.CallMatch without
// its pointers:
//
//	payrpc.CallMatch{Method: "tatra.executePayment", Params: []payrpc.CallCondition{
//		payrpc.At("/amount").Equals(payrpc.Decimal("12.50")), payrpc.At("/reference").Present()}}
type CallMatch struct {
	// Method is a JSON-RPC method (canonical name or alias) or, for HTTP exchanges, GET, POST, ...
	Method string
	// Kind is what kind of entry: rpc.CallEntryKindCall, rpc.CallEntryKindPush (a
	// notification) or rpc.CallEntryKindHTTP ("": any).
	Kind rpc.CallEntryKind
	// URL is a regular expression an HTTP exchange's URL must contain a match of.
	URL string
	// Params are conditions on the params (of an HTTP exchange: its request body).
	Params []CallCondition
	// Entry are conditions on the whole entry (/error/code, /http/status, /result/status).
	Entry []CallCondition
	// Failed, when set, is whether the call was answered with an error.
	Failed *bool
}

// CallCondition is one condition at a JSON Pointer; build it with At.
type CallCondition = rpc.CallCondition

// Pointer is a JSON Pointer (RFC 6901) into a call's params or into a whole entry; its methods
// make the conditions of a CallMatch.
type Pointer string

// At is the JSON Pointer p: payrpc.At("/pin").Present(), payrpc.At("/amount").Equals("12.50").
func At(p string) Pointer { return Pointer(p) }

// Equals: the value at the pointer must equal v (nil: JSON null). A masked secret reads as "***".
func (p Pointer) Equals(v interface{}) CallCondition {
	if v == nil {
		v = json.RawMessage("null") // a nil interface would be left out of the condition
	}
	return CallCondition{Pointer: string(p), Equals: v}
}

// Pattern: the value at the pointer must be a string containing a match of regex.
func (p Pointer) Pattern(regex string) CallCondition {
	return CallCondition{Pointer: string(p), Pattern: &regex}
}

// Present: there must be a value at the pointer (a secret given counts, though it reads as "***").
func (p Pointer) Present() CallCondition {
	present := true
	return CallCondition{Pointer: string(p), Present: &present}
}

// Absent: there must be no value at the pointer.
func (p Pointer) Absent() CallCondition {
	absent := true
	return CallCondition{Pointer: string(p), Absent: &absent}
}

// wire is the match as the server takes it.
func (m CallMatch) wire() rpc.CallMatch {
	var w rpc.CallMatch
	if m.Method != "" {
		w.Method = &m.Method
	}
	if m.Kind != "" {
		w.Kind = &m.Kind
	}
	if m.URL != "" {
		w.URL = &m.URL
	}
	w.Params = m.Params
	w.Entry = m.Entry
	w.Failed = m.Failed
	return w
}
