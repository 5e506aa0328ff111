package payrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/payrpc/payrpc-go/generated"
	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/wire"
)

// CallVerificationError is error -32010: sandbox.calls.verify (CallJournal.Verify,
// VerifySequence) found the call journal not as expected. Error() is the server's message
// followed by every nearest miss with each pointer where it differed, what was expected there
// and what was found; Failure is the server's data. It wraps the *RPCError (errors.Is with
// ErrCallVerificationFailed).
type CallVerificationError struct {
	RPCError
	// Failure is what was expected, how many entries matched and the nearest misses.
	Failure rpc.CallVerificationFailure
}

// Error returns "payrpc: " and the server's message, then a line per nearest miss and pointer.
func (e *CallVerificationError) Error() string {
	return "payrpc: " + describeCallFailure(e.Message, e.Data)
}

// Unwrap returns the underlying *RPCError.
func (e *CallVerificationError) Unwrap() error { return &e.RPCError }

// CallsNotSeenError is error -32011: sandbox.calls.wait (CallJournal.Wait) ran out of time before
// the entries it waited for arrived. Error() and Failure are as for CallVerificationError; it
// wraps the *RPCError (errors.Is with ErrCallsNotSeen).
type CallsNotSeenError struct {
	RPCError
	// Failure is what was expected, how many entries matched and the nearest misses.
	Failure rpc.CallVerificationFailure
}

// Error returns "payrpc: " and the server's message, then a line per nearest miss and pointer.
func (e *CallsNotSeenError) Error() string {
	return "payrpc: " + describeCallFailure(e.Message, e.Data)
}

// Unwrap returns the underlying *RPCError.
func (e *CallsNotSeenError) Unwrap() error { return &e.RPCError }

// decodeError is the most specific error for an error answer: a journal assertion, a generated
// domain error, or the *RPCError.
func decodeError(e *wire.RPCError) error {
	var failure rpc.CallVerificationFailure
	switch e.Code {
	case wire.CodeCallVerificationFailed:
		_ = json.Unmarshal(e.Data, &failure) // read leniently: an error must always build
		return &CallVerificationError{RPCError: *e, Failure: failure}
	case wire.CodeCallsNotSeen:
		_ = json.Unmarshal(e.Data, &failure)
		return &CallsNotSeenError{RPCError: *e, Failure: failure}
	}
	return generated.DecodeError(e)
}

// actualLimit is how much of a value found in an entry a failure message shows.
const actualLimit = 200

// describeCallFailure is the text of a journal assertion: the server's message, the ids of the
// entries that matched (when it lists them) and each nearest miss, one line per pointer:
//
//	Call verification failed: expected exactly 1 ... found 0; the nearest miss, 1.3 ...
//	nearest misses:
//	  1.3 (tatra.executePayment)
//	    /params/amount: expected equals "10.00", found "12.50"
//	    /params/reference: expected present, found nothing
//
// data is read leniently: what is not the documented shape is left out.
func describeCallFailure(message string, data json.RawMessage) string {
	var failure struct {
		Entries       []string `json:"entries"`
		NearestMisses []struct {
			Entry       string  `json:"entry"`
			Method      *string `json:"method"`
			Differences []struct {
				Pointer  string          `json:"pointer"`
				Expected string          `json:"expected"`
				Actual   json.RawMessage `json:"actual"` // nil: absent; "null": null
			} `json:"differences"`
		} `json:"nearestMisses"`
	}
	lines := []string{message}
	if len(data) > 0 && json.Unmarshal(data, &failure) != nil {
		return message
	}
	if len(failure.Entries) > 0 {
		lines = append(lines, "matched entries: "+strings.Join(failure.Entries, ", "))
	}
	if len(failure.NearestMisses) > 0 {
		lines = append(lines, "nearest misses:")
	}
	for _, miss := range failure.NearestMisses {
		if miss.Method != nil {
			lines = append(lines, fmt.Sprintf("  %s (%s)", miss.Entry, *miss.Method))
		} else {
			lines = append(lines, "  "+miss.Entry)
		}
		for _, d := range miss.Differences {
			found := "nothing"
			if d.Actual != nil {
				found = shown(d.Actual)
			}
			lines = append(lines, fmt.Sprintf("    %s: expected %s, found %s", d.Pointer, d.Expected, found))
		}
	}
	return strings.Join(lines, "\n")
}

// shown is a JSON value in one line, cut at actualLimit characters.
func shown(raw json.RawMessage) string {
	text := string(raw)
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil {
		text = compact.String()
	}
	if runes := []rune(text); len(runes) > actualLimit {
		text = string(runes[:actualLimit-1]) + "…"
	}
	return text
}
