package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The codes of the gateway's own errors (the JSON-RPC ones and payrpc's -32001 to -32011).
// Domain errors of the services have codes from -33000 down.
const (
	CodeParseError          = -32700
	CodeInvalidRequest      = -32600
	CodeMethodNotFound      = -32601
	CodeInvalidParams       = -32602
	CodeInternalError       = -32603
	CodeCancelled           = -32800
	CodeUnauthenticated     = -32001
	CodeOverloaded          = -32002
	CodeDeadlineExceeded    = -32003
	CodeShuttingDown        = -32004
	CodeIdempotencyConflict = -32005
	CodeSandboxOnly         = -32006
	CodeInvalidResult       = -32007
	CodeStoreFull           = -32008
	CodeStoreUnavailable    = -32009
	// CodeCallVerificationFailed: sandbox.calls.verify found the call journal not as expected.
	CodeCallVerificationFailed = -32010
	// CodeCallsNotSeen: sandbox.calls.wait ran out of time before the entries it waited for came.
	CodeCallsNotSeen = -32011
	// FirstDomainCode is the highest code of a service's own error; every domain code is at or below it.
	FirstDomainCode = -33000
)

// Sentinels for errors.Is: errors.Is(err, wire.ErrMethodNotFound) is true for any *RPCError
// (or domain error) with that code.
var (
	ErrParseError          = &RPCError{Code: CodeParseError, Message: "Parse error"}
	ErrInvalidRequest      = &RPCError{Code: CodeInvalidRequest, Message: "Invalid request"}
	ErrMethodNotFound      = &RPCError{Code: CodeMethodNotFound, Message: "Method not found"}
	ErrInvalidParams       = &RPCError{Code: CodeInvalidParams, Message: "Invalid params"}
	ErrInternalError       = &RPCError{Code: CodeInternalError, Message: "Internal error"}
	ErrCancelled           = &RPCError{Code: CodeCancelled, Message: "Request cancelled"}
	ErrUnauthenticated     = &RPCError{Code: CodeUnauthenticated, Message: "Unauthenticated"}
	ErrOverloaded          = &RPCError{Code: CodeOverloaded, Message: "Overloaded"}
	ErrDeadlineExceeded    = &RPCError{Code: CodeDeadlineExceeded, Message: "Deadline exceeded"}
	ErrShuttingDown        = &RPCError{Code: CodeShuttingDown, Message: "Shutting down"}
	ErrIdempotencyConflict = &RPCError{Code: CodeIdempotencyConflict, Message: "Idempotency conflict"}
	ErrSandboxOnly         = &RPCError{Code: CodeSandboxOnly, Message: "Sandbox only"}
	ErrInvalidResult       = &RPCError{Code: CodeInvalidResult, Message: "Invalid result"}
	ErrStoreFull           = &RPCError{Code: CodeStoreFull, Message: "Store full"}
	// ErrStoreUnavailable: the server's shared database (a PostgreSQL store) cannot be reached.
	// The call was not done, or, when the database went away during its commit, its outcome is
	// unknown (docs/deploy.md). It is retryable: call again once the database is back.
	ErrStoreUnavailable = &RPCError{Code: CodeStoreUnavailable, Message: "Store unavailable"}
	// ErrCallVerificationFailed: sandbox.calls.verify found the journal not as expected.
	ErrCallVerificationFailed = &RPCError{Code: CodeCallVerificationFailed, Message: "Call verification failed"}
	// ErrCallsNotSeen: sandbox.calls.wait ran out of time.
	ErrCallsNotSeen = &RPCError{Code: CodeCallsNotSeen, Message: "Calls not seen in time"}
)

// ErrClosed is wrapped by every error of a call that could not finish because the connection
// ended (Close was called, or the server exited or hung up): errors.Is(err, wire.ErrClosed).
var ErrClosed = errors.New("payrpc: the connection is closed")

// RPCError is a JSON-RPC error object the server answered with. Domain errors of the services
// are generated types that wrap it (errors.As(err, &rpcErr) finds it under them too).
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns "payrpc: <code> <message>".
func (e *RPCError) Error() string { return fmt.Sprintf("payrpc: %d %s", e.Code, e.Message) }

// Is makes errors.Is match the sentinels by code; the server's deadline error (-32003) also
// matches context.DeadlineExceeded and its cancellation (-32800) context.Canceled.
func (e *RPCError) Is(target error) bool {
	switch target {
	case context.DeadlineExceeded:
		return e.Code == CodeDeadlineExceeded
	case context.Canceled:
		return e.Code == CodeCancelled
	}
	other, ok := target.(*RPCError)
	return ok && other.Code == e.Code
}

// Retryable reports whether the server says a repeat of the call may succeed (data.retryable,
// which -32009 Store unavailable sets).
func (e *RPCError) Retryable() bool {
	var data struct {
		Retryable bool `json:"retryable"`
	}
	return len(e.Data) > 0 && json.Unmarshal(e.Data, &data) == nil && data.Retryable
}

// Violation is one schema violation: where (a JSON Pointer into the params), which rule, and what is wrong.
type Violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

// Violations returns the violations an InvalidParams (-32602) error carries in data.violations.
func (e *RPCError) Violations() []Violation {
	var data struct {
		Violations []Violation `json:"violations"`
	}
	if len(e.Data) == 0 || json.Unmarshal(e.Data, &data) != nil {
		return nil
	}
	return data.Violations
}

// DomainError is a service's own error (code -33000 and below): data carries type, status (a
// gRPC status name) and the error's fields. The generated packages wrap it in one type per
// error (tatra.WrongPinError); an unknown domain code arrives as a plain *DomainError.
type DomainError struct {
	RPCError
	// Type is data.type: which error of the service this is.
	Type string
	// Status is data.status: the gRPC canonical status name.
	Status string
}

// NewDomainError reads type and status from the data of e.
func NewDomainError(e RPCError) DomainError {
	var fields struct {
		Type   string `json:"type"`
		Status string `json:"status"`
	}
	if len(e.Data) > 0 {
		_ = json.Unmarshal(e.Data, &fields) // data is read leniently: an error must always build
	}
	return DomainError{RPCError: e, Type: fields.Type, Status: fields.Status}
}

// Unwrap returns the underlying *RPCError.
func (e *DomainError) Unwrap() error { return &e.RPCError }

// DecodeData unmarshals data into v, leniently: malformed data leaves v as it was.
func (e *DomainError) DecodeData(v interface{}) {
	if len(e.Data) > 0 {
		_ = json.Unmarshal(e.Data, v)
	}
}

// ErrorTable maps domain error codes to functions that build their typed errors; each
// generated service package has one.
type ErrorTable map[int]func(DomainError) error

// DecodeError returns the most specific error for e: a gateway *RPCError, the typed error of
// one of the tables, a *DomainError for an unknown domain code, else e itself.
func DecodeError(e *RPCError, tables ...ErrorTable) error {
	if e.Code > FirstDomainCode {
		return e
	}
	base := NewDomainError(*e)
	for _, table := range tables {
		if build, ok := table[e.Code]; ok {
			return build(base)
		}
	}
	return &base
}

// ValidationError reports params, a result or a notification that broke its JSON Schema;
// for params it is returned before anything is sent.
type ValidationError struct {
	// What names the message: "params of tatra.executePayment", "result of ...", "notification ...".
	What string
	// Violations lists every problem; Violations[0].Pointer is where the first one is.
	Violations []Violation
}

// Error lists the violations.
func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Violations))
	for _, v := range e.Violations {
		pointer := v.Pointer
		if pointer == "" {
			pointer = "/"
		}
		parts = append(parts, fmt.Sprintf("%s: %s (%s)", pointer, v.Message, v.Keyword))
	}
	return fmt.Sprintf("payrpc: invalid %s: %s", e.What, strings.Join(parts, "; "))
}

// Pointer is the JSON Pointer of the first violation.
func (e *ValidationError) Pointer() string {
	if len(e.Violations) == 0 {
		return ""
	}
	return e.Violations[0].Pointer
}
