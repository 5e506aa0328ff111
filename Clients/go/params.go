package payrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/payrpc/payrpc-go/wire"
)

// MaxTimeoutMs is the longest deadline the server takes in _meta.timeoutMs (one day).
const MaxTimeoutMs = 86_400_000

// timeoutMs is the time left before ctx's deadline in whole milliseconds, rounded up and
// clamped to [1, MaxTimeoutMs]; ok is false without a deadline.
func timeoutMs(ctx context.Context) (ms int64, ok bool) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return 0, false
	}
	left := time.Until(deadline)
	ms = int64(math.Ceil(float64(left) / float64(time.Millisecond)))
	if ms < 1 {
		ms = 1
	}
	if ms > MaxTimeoutMs {
		ms = MaxTimeoutMs
	}
	return ms, true
}

// wireParams marshals params, validates them (without _meta) and adds _meta: timeoutMs from the
// context's deadline and the idempotency key. The result is nil when there is nothing to send.
func (c *Client) wireParams(ctx context.Context, method string, params interface{}, o wire.CallOptions) (json.RawMessage, error) {
	var raw []byte
	if params != nil {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return nil, fmt.Errorf("payrpc: params of %s: %w", method, err)
		}
		raw = bytes.TrimSpace(raw)
		if string(raw) == "null" {
			raw = nil
		}
	}
	if len(raw) > 0 && raw[0] == '[' {
		if o.IdempotencyKey != "" {
			return nil, errors.New("payrpc: an idempotency key needs params by name (an object), not an array")
		}
		if c.schemas != nil {
			if err := c.schemas.validateParams(method, raw); err != nil {
				return nil, err
			}
		}
		return raw, nil // by position there is no room for _meta; the deadline is kept locally
	}
	fields := map[string]json.RawMessage{}
	if len(raw) > 0 {
		if raw[0] != '{' {
			return nil, fmt.Errorf("payrpc: params of %s must be an object or an array, not %.40s", method, raw)
		}
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, fmt.Errorf("payrpc: params of %s: %w", method, err)
		}
	}
	meta := map[string]json.RawMessage{}
	if given, ok := fields["_meta"]; ok {
		if err := json.Unmarshal(given, &meta); err != nil {
			return nil, fmt.Errorf("payrpc: params._meta of %s must be an object: %w", method, err)
		}
		delete(fields, "_meta")
		raw = nil // re-marshalled below without it
	}
	if c.schemas != nil {
		check := raw
		if check == nil {
			check, _ = json.Marshal(fields)
		}
		if err := c.schemas.validateParams(method, check); err != nil {
			return nil, err
		}
	}
	if ms, ok := timeoutMs(ctx); ok {
		// A timeoutMs given in params._meta stays when it is the shorter one.
		var given int64
		if raw, ok := meta["timeoutMs"]; !ok || json.Unmarshal(raw, &given) != nil || given <= 0 || given > ms {
			meta["timeoutMs"] = json.RawMessage(fmt.Sprint(ms))
		}
	}
	if o.IdempotencyKey != "" {
		key, _ := json.Marshal(o.IdempotencyKey)
		meta["idempotencyKey"] = key
	}
	if len(meta) == 0 {
		if raw != nil {
			return raw, nil
		}
		if len(fields) == 0 && params == nil {
			return nil, nil
		}
		return json.Marshal(fields)
	}
	encoded, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	fields["_meta"] = encoded
	return json.Marshal(fields)
}
