package payrpctest_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/sandbox"
	"github.com/payrpc/payrpc-go/payrpctest"
)

// spawn starts a server over stdio ($PAYRPC_BIN) for one test; the cleanup closes it.
func spawn(t *testing.T) *payrpc.Client {
	t.Helper()
	binary, err := payrpc.FindBinary("")
	if err != nil {
		t.Fatalf("set PAYRPC_BIN to the payrpc binary: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, err := payrpc.Spawn(ctx, payrpc.WithBinary(binary), payrpc.WithArgs("--data", t.TempDir(), "--validate-results"))
	if err != nil {
		t.Fatalf("spawn: %v", err)
	}
	t.Cleanup(func() {
		if err := client.Close(); err != nil {
			t.Errorf("the server did not exit cleanly: %v", err)
		}
	})
	return client
}

// fatal is a testing.TB whose Fatalf records the message and ends its goroutine, as
// testing.T's does, so a helper's failure can be looked at.
type fatal struct {
	testing.TB
	message string
}

func (f *fatal) Helper() {}

func (f *fatal) Fatalf(format string, args ...interface{}) {
	f.message = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs check with a fatal and returns what it failed with ("" when it did not).
func failure(t *testing.T, check func(tb testing.TB)) string {
	f := &fatal{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(f)
	}()
	<-done
	return f.message
}

func TestTheHelpersPassWhatHoldsAndFailTheTestWithTheNearestMisses(t *testing.T) {
	client := spawn(t)
	ctx := context.Background()
	if _, err := client.RPC.Health(ctx); err != nil {
		t.Fatal(err)
	}
	health := payrpc.CallMatch{Method: "rpc.health"}
	if held := payrpctest.VerifyCalls(t, client, health, payrpc.Times(1)); held.Matched != 1 {
		t.Errorf("verify: %+v", held)
	}
	page, err := client.Calls().List(ctx, sandbox.CallsListParams{})
	if err != nil || page.Next == nil {
		t.Fatalf("list: %+v %v", page, err)
	}
	if entries := payrpctest.WaitForCalls(t, client, health); len(entries) != 1 {
		t.Errorf("wait for what is there: %+v", entries)
	}
	if _, err := client.Tatra.FetchSetupData(ctx); err != nil {
		t.Fatal(err)
	}
	payrpctest.VerifyCallSequence(t, client, health, payrpc.CallMatch{Method: "tatra.fetchSetupData"})

	message := failure(t, func(tb testing.TB) {
		payrpctest.VerifyCalls(tb, client, payrpc.CallMatch{Method: "rpc.health", Params: []payrpc.CallCondition{payrpc.At("/probe").Equals(1)}})
	})
	for _, want := range []string{"payrpc: Call verification failed", "/params/probe: expected equals 1, found nothing"} {
		if !strings.Contains(message, want) {
			t.Errorf("VerifyCalls failed the test without %q:\n%s", want, message)
		}
	}
	if message := failure(t, func(tb testing.TB) {
		payrpctest.VerifyCallSequence(tb, client, payrpc.CallMatch{Method: "tatra.fetchSetupData"}, health)
	}); !strings.Contains(message, "step 2 of 2 of the sequence") {
		t.Errorf("VerifyCallSequence out of order failed with:\n%s", message)
	}
	if message := failure(t, func(tb testing.TB) {
		payrpctest.WaitForCalls(tb, client, health, payrpc.After(*page.Next), payrpc.WaitTimeout(20*time.Millisecond))
	}); !strings.Contains(message, "payrpc: Calls not seen in time") {
		t.Errorf("WaitForCalls failed with:\n%s", message)
	}
	// The error under the message is typed, for a test that wants more than a failure.
	_, err = client.Calls().Verify(ctx, payrpc.CallMatch{Method: "tatra.authorize"})
	var failed *payrpc.CallVerificationError
	if !errors.As(err, &failed) || failed.Failure.Expected != "exactly 1" {
		t.Errorf("verify tatra.authorize: %v", err)
	}
}
