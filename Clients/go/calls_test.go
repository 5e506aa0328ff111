package payrpc_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/generated/sandbox"
	"github.com/payrpc/payrpc-go/generated/tatra"
	"github.com/payrpc/payrpc-go/wire"
)

// journalled spawns a server and makes two health checks and a payment over the limit
// (answered with AmountLimit), so its journal holds three entries.
func journalled(t *testing.T) *payrpc.Client {
	t.Helper()
	client := spawn(t)
	ctx := testContext(t)
	for i := 0; i < 2; i++ {
		if _, err := client.RPC.Health(ctx); err != nil {
			t.Fatal(err)
		}
	}
	_, err := client.Tatra.ExecutePayment(ctx, tatra.ExecutePaymentParams{Amount: "5000.01", Contact: &jana, Reference: payrpc.Ptr("Lunch")})
	var limit *tatra.AmountLimitError
	if !errors.As(err, &limit) {
		t.Fatalf("executePayment of 5000.01: want AmountLimitError, got %v", err)
	}
	return client
}

func TestCallConditionsMarshalAsTheServerTakesThem(t *testing.T) {
	conditions := []payrpc.CallCondition{
		payrpc.At("/amount").Equals(payrpc.Decimal("12.50")),
		payrpc.At("/tip").Equals(nil),
		payrpc.At("/count").Equals(0),
		payrpc.At("/reference").Pattern("^Lun"),
		payrpc.At("/pin").Present(),
		payrpc.At("/note").Absent(),
	}
	got, err := json.Marshal(conditions)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"equals":"12.50","pointer":"/amount"},{"equals":null,"pointer":"/tip"},{"equals":0,"pointer":"/count"},` +
		`{"pattern":"^Lun","pointer":"/reference"},{"pointer":"/pin","present":true},{"absent":true,"pointer":"/note"}]`
	if string(got) != want {
		t.Errorf("conditions marshal as\n%s\nwant\n%s", got, want)
	}
}

func TestAJournalFailureListsEveryNearestMiss(t *testing.T) {
	data := json.RawMessage(`{"expected":"exactly 1","matched":0,"nearestMisses":[{"entry":"1.3","method":"tatra.executePayment","differences":[` +
		`{"pointer":"/params/amount","expected":"equals \"12.50\"","actual":"5000.01"},` +
		`{"pointer":"/params/reference","expected":"present"},` +
		`{"pointer":"/params/tip","expected":"absent","actual":null},` +
		`{"pointer":"/params/note","expected":"matches ^a","actual":"<b> & c"}]}]}`)
	want := strings.Join([]string{
		"Call verification failed: expected exactly 1 ..., found 0",
		"nearest misses:",
		"  1.3 (tatra.executePayment)",
		`    /params/amount: expected equals "12.50", found "5000.01"`,
		"    /params/reference: expected present, found nothing",
		"    /params/tip: expected absent, found null",
		`    /params/note: expected matches ^a, found "<b> & c"`,
	}, "\n")
	if got := payrpc.DescribeCallFailure("Call verification failed: expected exactly 1 ..., found 0", data); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := payrpc.DescribeCallFailure("Call verification failed", json.RawMessage(`"not an object"`)); got != "Call verification failed" {
		t.Errorf("malformed data: %q", got)
	}
	err := payrpc.DecodeError(&wire.RPCError{Code: -32010, Message: "Call verification failed", Data: data})
	var failed *payrpc.CallVerificationError
	if !errors.As(err, &failed) || failed.Failure.Expected != "exactly 1" || len(failed.Failure.NearestMisses) != 1 {
		t.Fatalf("decoded -32010 as %#v", err)
	}
	var rpcErr *payrpc.RPCError
	if !errors.Is(err, payrpc.ErrCallVerificationFailed) || !errors.As(err, &rpcErr) || rpcErr.Code != -32010 {
		t.Errorf("a *CallVerificationError wraps its *RPCError: %v", err)
	}
	late := payrpc.DecodeError(&wire.RPCError{Code: -32011, Message: "Calls not seen in time"})
	var notSeen *payrpc.CallsNotSeenError
	if !errors.As(late, &notSeen) || !errors.Is(late, payrpc.ErrCallsNotSeen) || late.Error() != "payrpc: Calls not seen in time" {
		t.Errorf("decoded -32011 as %#v (%v)", late, late)
	}
}

func TestVerifyAndCountHoldAndAFailedVerifyNamesThePointer(t *testing.T) {
	client := journalled(t)
	ctx := testContext(t)
	calls := client.Calls()
	health := payrpc.CallMatch{Method: "rpc.health"}
	held, err := calls.Verify(ctx, health, payrpc.Times(2))
	if err != nil || held.Matched != 2 || len(held.Entries) != 2 {
		t.Fatalf("verify rpc.health twice: %+v %v", held, err)
	}
	payment := payrpc.CallMatch{Method: "tatra.executePayment", Failed: payrpc.Ptr(true), Params: []payrpc.CallCondition{
		payrpc.At("/amount").Equals(payrpc.Decimal("5000.01")), payrpc.At("/reference").Pattern("^Lun")}}
	if _, err := calls.Verify(ctx, payment); err != nil {
		t.Fatal(err)
	}
	limit := payrpc.CallMatch{Method: "tatra.executePayment", Entry: []payrpc.CallCondition{payrpc.At("/error/code").Equals(-33003)}}
	if _, err := calls.Verify(ctx, limit); err != nil {
		t.Fatal(err)
	}
	if _, err := calls.Verify(ctx, health, payrpc.AtLeast(1), payrpc.AtMost(2)); err != nil {
		t.Fatal(err)
	}
	if n, err := calls.Count(ctx, health); err != nil || n != 2 {
		t.Fatalf("count rpc.health: %d %v", n, err)
	}
	if n, err := calls.Count(ctx, payrpc.CallMatch{}); err != nil || n != 3 {
		t.Fatalf("count everything: %d %v", n, err)
	}
	found, err := calls.Find(ctx, payrpc.CallMatch{Kind: rpc.CallEntryKindCall}, 2)
	if err != nil || len(found) != 2 || *found[0].Method != "rpc.health" {
		t.Fatalf("find: %+v %v", found, err)
	}

	_, err = calls.Verify(ctx, payrpc.CallMatch{Method: "tatra.executePayment", Params: []payrpc.CallCondition{
		payrpc.At("/amount").Equals(payrpc.Decimal("12.50")), payrpc.At("/pin").Present()}})
	var failed *payrpc.CallVerificationError
	if !errors.As(err, &failed) {
		t.Fatalf("want a *CallVerificationError, got %v", err)
	}
	message := err.Error()
	for _, want := range []string{"payrpc: Call verification failed", `/params/amount: expected equals "12.50", found "5000.01"`, "/params/pin: expected present, found nothing"} {
		if !strings.Contains(message, want) {
			t.Errorf("the message lacks %q:\n%s", want, message)
		}
	}
	nearest := failed.Failure.NearestMisses[0]
	var pointers []string
	for _, d := range nearest.Differences {
		pointers = append(pointers, d.Pointer)
	}
	if *nearest.Method != "tatra.executePayment" || !reflect.DeepEqual(pointers, []string{"/params/amount", "/params/pin"}) {
		t.Errorf("nearest miss: %+v", nearest)
	}
	if failed.Failure.Matched != 0 || failed.Failure.Expected != "exactly 1" || failed.Code != -32010 {
		t.Errorf("failure: %+v", failed)
	}
	if _, err := calls.Verify(ctx, health); !errors.As(err, &failed) || !strings.Contains(err.Error(), "exactly 1") {
		t.Errorf("verify rpc.health once (there were two): %v", err)
	}
}

func TestSequencesHoldInOrderAndFailOutOfOrder(t *testing.T) {
	client := journalled(t)
	ctx := testContext(t)
	health, payment := payrpc.CallMatch{Method: "rpc.health"}, payrpc.CallMatch{Method: "tatra.executePayment", Failed: payrpc.Ptr(true)}
	if held, err := client.Calls().VerifySequence(ctx, health, payment); err != nil || held.Matched != 2 {
		t.Fatalf("in order: %+v %v", held, err)
	}
	_, err := client.Calls().VerifySequence(ctx, payment, health)
	var failed *payrpc.CallVerificationError
	if !errors.As(err, &failed) || failed.Failure.Step == nil || *failed.Failure.Step != 1 || failed.Failure.Matched != 1 {
		t.Fatalf("out of order: %v", err)
	}
	if !strings.Contains(err.Error(), "step 2 of 2 of the sequence (rpc.health)") {
		t.Errorf("message: %s", err)
	}
}

func TestAWaitIsAnsweredByACallAnotherConnectionMakes(t *testing.T) {
	srv := startServer(t)
	ctx := testContext(t)
	waiter, err := payrpc.DialTCP(ctx, srv.tcp)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	caller, err := payrpc.DialTCP(ctx, srv.tcp)
	if err != nil {
		t.Fatal(err)
	}
	defer caller.Close()
	if _, err := waiter.RPC.Health(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := waiter.Calls().List(ctx, sandbox.CallsListParams{})
	if err != nil || page.Next == nil || len(page.Entries) == 0 {
		t.Fatalf("list: %+v %v", page, err)
	}
	mine := *page.Entries[len(page.Entries)-1].Connection
	type waited struct {
		entries []rpc.CallEntry
		err     error
	}
	done := make(chan waited, 1)
	go func() {
		// Only what is journalled after the cursor counts: the waiter's own health check does
		// not, so the caller's call answers the wait however the two race.
		entries, err := waiter.Calls().Wait(ctx, payrpc.CallMatch{Method: "rpc.health"}, payrpc.After(*page.Next), payrpc.WaitTimeout(time.Minute))
		done <- waited{entries, err}
	}()
	if _, err := caller.RPC.Health(ctx); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil || len(got.entries) != 1 || *got.entries[0].Method != "rpc.health" {
		t.Fatalf("wait: %+v %v", got.entries, got.err)
	}
	if *got.entries[0].Connection == mine {
		t.Errorf("the wait was answered by the waiter's own call (connection %d)", mine)
	}
}

func TestAWaitThatTimesOutReturnsCallsNotSeen(t *testing.T) {
	client := journalled(t)
	ctx := testContext(t)
	_, err := client.Calls().Wait(ctx, payrpc.CallMatch{Method: "tatra.authorize"}, payrpc.WaitTimeout(50*time.Millisecond))
	var late *payrpc.CallsNotSeenError
	if !errors.As(err, &late) || late.Code != -32011 || late.Failure.Matched != 0 {
		t.Fatalf("want a *CallsNotSeenError, got %v", err)
	}
	for _, want := range []string{"payrpc: Calls not seen in time", `/method: expected tatra.authorize, found "tatra.executePayment"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message lacks %q:\n%s", want, err)
		}
	}
	// Entries already there answer at once.
	entries, err := client.Calls().Wait(ctx, payrpc.CallMatch{Method: "rpc.health"}, payrpc.WaitCount(2), payrpc.WaitTimeout(50*time.Millisecond))
	if err != nil || len(entries) != 2 {
		t.Fatalf("wait for what is there: %+v %v", entries, err)
	}
}

func TestOtherJournalErrorsStayTheClientsUsualOnes(t *testing.T) {
	client := journalled(t)
	ctx := testContext(t)
	_, err := client.Calls().Verify(ctx, payrpc.CallMatch{Params: []payrpc.CallCondition{payrpc.At("no-slash").Present()}})
	var invalid *payrpc.ValidationError
	if !errors.As(err, &invalid) {
		t.Errorf("a pointer that is not one: want a *ValidationError before sending, got %v", err)
	}
	_, err = client.Calls().Verify(ctx, payrpc.CallMatch{Method: "rpc.health"}, payrpc.Times(1), payrpc.AtLeast(1))
	if !errors.Is(err, payrpc.ErrInvalidParams) {
		t.Errorf("times with atLeast: want the server's InvalidParams, got %v", err)
	}
}

func TestClearEmptiesTheJournal(t *testing.T) {
	client := journalled(t)
	ctx := testContext(t)
	if n, err := client.Calls().Clear(ctx); err != nil || n != 3 {
		t.Fatalf("clear: %d %v", n, err)
	}
	if n, err := client.Calls().Count(ctx, payrpc.CallMatch{}); err != nil || n != 0 {
		t.Fatalf("count after clear: %d %v", n, err)
	}
	var failed *payrpc.CallVerificationError
	if _, err := client.Calls().Verify(ctx, payrpc.CallMatch{Method: "rpc.health"}, payrpc.AtLeast(1)); !errors.As(err, &failed) {
		t.Errorf("verify after clear: %v", err)
	}
	if _, err := client.Calls().Verify(ctx, payrpc.CallMatch{Method: "rpc.health"}, payrpc.Times(0)); err != nil {
		t.Errorf("verify none after clear: %v", err)
	}
}
