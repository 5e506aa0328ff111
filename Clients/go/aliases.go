package payrpc

import "github.com/payrpc/payrpc-go/wire"

// Decimal is money on the wire: a decimal string ("10.00"), never a JSON number.
type Decimal = wire.Decimal

// RPCError is an error the server answered with: code, message and data.
type RPCError = wire.RPCError

// DomainError is a service's own error (code -33000 and below); the generated packages wrap it.
type DomainError = wire.DomainError

// ValidationError reports params, a result or a notification that broke its JSON Schema.
type ValidationError = wire.ValidationError

// Violation is one schema violation: a JSON Pointer, the rule and a message.
type Violation = wire.Violation

// CallOption adjusts one call (IdempotencyKey).
type CallOption = wire.CallOption

// Gateway error sentinels for errors.Is (see wire for the codes).
var (
	ErrMethodNotFound      = wire.ErrMethodNotFound
	ErrInvalidParams       = wire.ErrInvalidParams
	ErrInvalidRequest      = wire.ErrInvalidRequest
	ErrParseError          = wire.ErrParseError
	ErrInternalError       = wire.ErrInternalError
	ErrCancelled           = wire.ErrCancelled
	ErrUnauthenticated     = wire.ErrUnauthenticated
	ErrOverloaded          = wire.ErrOverloaded
	ErrDeadlineExceeded    = wire.ErrDeadlineExceeded
	ErrShuttingDown        = wire.ErrShuttingDown
	ErrIdempotencyConflict = wire.ErrIdempotencyConflict
	ErrSandboxOnly         = wire.ErrSandboxOnly
	ErrInvalidResult       = wire.ErrInvalidResult
	ErrStoreFull           = wire.ErrStoreFull
	ErrStoreUnavailable    = wire.ErrStoreUnavailable
	// ErrCallVerificationFailed and ErrCallsNotSeen match the journal's assertions
	// (*CallVerificationError, *CallsNotSeenError) by code.
	ErrCallVerificationFailed = wire.ErrCallVerificationFailed
	ErrCallsNotSeen           = wire.ErrCallsNotSeen
	// ErrClosed is wrapped by the error of every call the end of the connection interrupted.
	ErrClosed = wire.ErrClosed
)

// ParseDecimal checks that s is a decimal string and returns it as a Decimal.
func ParseDecimal(s string) (Decimal, error) { return wire.ParseDecimal(s) }

// IdempotencyKey sends key as params._meta.idempotencyKey, so a retried call is answered once.
func IdempotencyKey(key string) CallOption { return wire.IdempotencyKey(key) }

// Ptr returns a pointer to v, for the optional fields of the generated structs.
func Ptr[T any](v T) *T { return &v }
