// Package payrpctest checks a payrpc sandbox's call journal from a Go test: each helper asks
// through client.Calls() and fails the test with t.Fatalf, whose message is the server's
// followed by every nearest miss with each pointer where it differed, what was expected there
// and what was found.
//
//	payrpctest.VerifyCalls(t, client, payrpc.CallMatch{Method: "tatra.authorizePayment",
//		Params: []payrpc.CallCondition{payrpc.At("/pincode").Present()}}, payrpc.Times(1))
//
// The helpers wait for the server without a deadline of their own (the go test -timeout stops a
// hung test); CallJournal's methods take a context for anything finer.
package payrpctest

import (
	"context"
	"testing"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/rpc"
)

// VerifyCalls fails the test unless the entries matching match number what opts say
// (payrpc.Times, AtLeast, AtMost; exactly one when none is given); it returns the verification.
func VerifyCalls(t testing.TB, client *payrpc.Client, match payrpc.CallMatch, opts ...payrpc.VerifyOption) *rpc.CallVerification {
	t.Helper()
	held, err := client.Calls().Verify(context.Background(), match, opts...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return held
}

// VerifyCallSequence fails the test unless entries match each step in turn, in the order they
// arrived (others may come between).
func VerifyCallSequence(t testing.TB, client *payrpc.Client, steps ...payrpc.CallMatch) *rpc.CallVerification {
	t.Helper()
	held, err := client.Calls().VerifySequence(context.Background(), steps...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return held
}

// WaitForCalls returns the matching entries once there are enough (payrpc.WaitCount, default 1),
// and fails the test when the server's wait (payrpc.WaitTimeout, default 5s) runs out first.
func WaitForCalls(t testing.TB, client *payrpc.Client, match payrpc.CallMatch, opts ...payrpc.WaitOption) []rpc.CallEntry {
	t.Helper()
	entries, err := client.Calls().Wait(context.Background(), match, opts...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return entries
}
