package wire

import (
	"context"
	"fmt"
)

// Caller is what the generated service methods call through; *payrpc.Client implements it.
// params is marshalled with encoding/json (nil: no params); the result, when result is not
// nil, is unmarshalled into it.
type Caller interface {
	Call(ctx context.Context, method string, params, result interface{}, opts ...CallOption) error
}

// CallOption adjusts one call (see IdempotencyKey).
type CallOption func(*CallOptions) error

// CallOptions is what the options of one call add up to; the client reads it.
type CallOptions struct {
	// IdempotencyKey is sent as params._meta.idempotencyKey when not empty.
	IdempotencyKey string
}

// IdempotencyKey sends key (1 to 255 bytes) as params._meta.idempotencyKey: the server answers
// a repeated call with the same key and params with the first answer, and a repeated key with
// different params with IdempotencyConflict.
func IdempotencyKey(key string) CallOption {
	return func(o *CallOptions) error {
		if len(key) < 1 || len(key) > 255 {
			return fmt.Errorf("payrpc: an idempotency key is 1 to 255 bytes, not %d", len(key))
		}
		o.IdempotencyKey = key
		return nil
	}
}

// ApplyCallOptions folds opts into one CallOptions.
func ApplyCallOptions(opts []CallOption) (CallOptions, error) {
	var o CallOptions
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}
