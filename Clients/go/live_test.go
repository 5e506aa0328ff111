package payrpc_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated"
	"github.com/payrpc/payrpc-go/generated/pbba"
	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/generated/sandbox"
)

func TestBuiltinsOverStdio(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	health, err := client.RPC.Health(ctx)
	if err != nil || health.Status != rpc.ServingStatusServing {
		t.Fatalf("health: %+v %v", health, err)
	}
	hello, err := client.RPC.Hello(ctx, rpc.HelloParams{Profile: payrpc.Ptr("builtins"), ProtocolVersion: payrpc.Ptr(payrpc.ProtocolVersion)})
	if err != nil || hello.Profile != "builtins" || hello.ProtocolVersion != payrpc.ProtocolVersion || hello.Server != "payrpc" {
		t.Fatalf("hello: %+v %v", hello, err)
	}
	document, err := client.RPC.Discover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	methods, _ := document["methods"].([]interface{})
	if len(methods) != int(hello.Methods) {
		t.Fatalf("discover lists %d methods, hello says %d", len(methods), hello.Methods)
	}
	served := map[string]bool{}
	for _, m := range methods {
		served[m.(map[string]interface{})["name"].(string)] = true
	}
	for _, m := range generated.Methods {
		if !served[m] {
			t.Errorf("the generated method %s is not served (regenerate the stubs)", m)
		}
	}
	// A cancellation of nothing is ignored; the connection goes on.
	if err := client.Notify(ctx, payrpc.CancelMethod, map[string]int{"id": 999999}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.RPC.Health(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestPaymentStatusArrivesOnTheChannel(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	sub := client.Subscribe(pbba.NotificationPaymentStatusChanged)
	defer sub.Close()
	all := client.Subscribe()
	defer all.Close()
	request, err := client.Pbba.SubmitPaymentRequest(ctx, pbba.SubmitPaymentRequestParams{Amount: "10.00", Currency: "GBP", Reference: "Order 7"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Pbba.ShowPBBAPopup(ctx, pbba.ShowPBBAPopupParams{SecureToken: request.SecureToken, Brn: request.Brn, ExpiryInterval: 300}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Sandbox.PbbaApprovePayment(ctx, sandbox.PbbaApprovePaymentParams{SecureToken: &request.SecureToken}); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-sub.C:
		if n.Method != pbba.NotificationPaymentStatusChanged || n.Err != nil {
			t.Fatalf("notification: %+v", n)
		}
		typed, err := n.Typed()
		changed, ok := typed.(pbba.PaymentStatusChangedNotification)
		if err != nil || !ok || changed.Status != pbba.PaymentStatusCompleted || changed.RequestID != request.RequestID {
			t.Fatalf("typed notification: %#v %v", typed, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no pbba.paymentStatusChanged within 30s")
	}
	select {
	case n := <-all.C:
		if n.Method == "" {
			t.Fatal("an empty notification on the catch-all subscription")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the catch-all subscription got nothing")
	}
}

func TestPopupExpiryArrivesAndChannelsCloseWithTheConnection(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	sub := client.Subscribe(pbba.NotificationPopupDidExpire)
	request, err := client.Pbba.SubmitPaymentRequest(ctx, pbba.SubmitPaymentRequestParams{Amount: "1.00", Currency: "GBP", Reference: "Expiring"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Pbba.ShowPBBAPopup(ctx, pbba.ShowPBBAPopupParams{SecureToken: request.SecureToken, Brn: request.Brn, ExpiryInterval: 1}); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-sub.C:
		var expired pbba.PopupDidExpireNotification
		if err := n.Decode(&expired); err != nil || expired.RequestID == nil || *expired.RequestID != request.RequestID {
			t.Fatalf("popupDidExpire: %+v %v", expired, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no pbba.popupDidExpire within 30s")
	}
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case _, open := <-sub.C:
		if open {
			t.Fatal("a notification after the connection closed")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription's channel did not close with the connection")
	}
}

func TestCancellingTheContextSendsCancelRequest(t *testing.T) {
	client := spawn(t, "--drain-timeout", "60")
	wire := tap(client)
	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, err := client.Sandbox.Delay(ctx, sandbox.DelayParams{Ms: 60000})
		done <- err
	}()
	waitFor(t, func() bool { return payrpc.PendingCalls(client) == 1 })
	started := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want context.Canceled, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	if time.Since(started) > 2*time.Second {
		t.Fatalf("the cancelled call took %v to return", time.Since(started))
	}
	var requestID interface{}
	cancelled := false
	for _, m := range wire.messages(t) {
		if m["method"] == "sandbox.delay" {
			requestID = m["id"]
		}
		if params, ok := m["params"].(map[string]interface{}); ok && m["method"] == payrpc.CancelMethod && m["id"] == nil {
			cancelled = params["id"] == requestID
		}
	}
	if requestID == nil || !cancelled {
		t.Fatalf("no $/cancelRequest for the delay's id %v: %v", requestID, wire.messages(t))
	}
	if _, err := client.RPC.Health(testContext(t)); err != nil {
		t.Fatalf("the connection after a cancellation: %v", err)
	}
	// The server stopped the delay: it drains at once instead of after 60 s.
	closing := time.Now()
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(closing); d > 20*time.Second {
		t.Fatalf("Close took %v: the cancelled delay was still running on the server", d)
	}
}

func TestTheDeadlineIsSentAndEnforced(t *testing.T) {
	client := spawn(t)
	wire := tap(client)
	ctx, cancel := context.WithTimeout(testContext(t), 300*time.Millisecond)
	defer cancel()
	started := time.Now()
	_, err := client.Sandbox.Delay(ctx, sandbox.DelayParams{Ms: 20000})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	if d := time.Since(started); d > 5*time.Second {
		t.Fatalf("the call outlived its deadline by %v", d)
	}
	sent := wire.messages(t)[0]
	meta := sent["params"].(map[string]interface{})["_meta"].(map[string]interface{})
	if ms, ok := meta["timeoutMs"].(float64); !ok || ms < 1 || ms > 300 {
		t.Fatalf("_meta.timeoutMs: %v", meta)
	}
	if sent["params"].(map[string]interface{})["ms"] != float64(20000) {
		t.Fatalf("the params beside _meta: %v", sent["params"])
	}
	// The server's own deadline error is a context.DeadlineExceeded too.
	err = client.Call(testContext(t), "sandbox.delay", map[string]interface{}{"ms": 20000, "_meta": map[string]int{"timeoutMs": 200}}, nil)
	var rpcErr *payrpc.RPCError
	if !errors.Is(err, payrpc.ErrDeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &rpcErr) {
		t.Fatalf("the server's deadline: want -32003, got %v", err)
	}
}

func TestALocalDeadlineHoldsWhenTheServerDoesNotAnswer(t *testing.T) {
	client := spawn(t)
	if err := client.Process().Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	defer func() {
		if !resumed {
			_ = client.Process().Signal(syscall.SIGCONT)
		}
	}()
	ctx, cancel := context.WithTimeout(testContext(t), 300*time.Millisecond)
	defer cancel()
	started := time.Now()
	_, err := client.RPC.Health(ctx)
	var rpcErr *payrpc.RPCError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &rpcErr) {
		t.Fatalf("want a local deadline error, got %v", err)
	}
	if d := time.Since(started); d > 5*time.Second {
		t.Fatalf("the local deadline took %v", d)
	}
	_ = client.Process().Signal(syscall.SIGCONT)
	resumed = true
	if _, err := client.RPC.Health(testContext(t)); err != nil {
		t.Fatalf("the connection after a local deadline: %v", err)
	}
}

// concurrentDelays makes n calls at once from n goroutines and checks every answer.
func concurrentDelays(t *testing.T, client *payrpc.Client, n int) {
	ctx := testContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got, err := client.Sandbox.Delay(ctx, sandbox.DelayParams{Ms: int64(i % 50)})
			if err == nil && got != int64(i%50) {
				err = fmt.Errorf("call %d answered %d", i, got)
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestFiveHundredConcurrentCallsOverStdio(t *testing.T) {
	concurrentDelays(t, spawn(t, "--max-in-flight", "1000"), 500)
}

func TestFiveHundredConcurrentCallsOverTCP(t *testing.T) {
	srv := startServer(t, "--max-in-flight", "1000")
	client, err := payrpc.DialTCP(testContext(t), srv.tcp)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	concurrentDelays(t, client, 500)
}

func TestAServerThatDiesMidCallFailsEveryPendingCall(t *testing.T) {
	ctx := testContext(t)
	client, err := payrpc.Spawn(ctx, payrpc.WithArgs(serverArgs(t)...))
	if err != nil {
		t.Fatal(err)
	}
	const calls = 20
	errs := make(chan error, calls)
	for i := 0; i < calls; i++ {
		go func() {
			_, err := client.Sandbox.Delay(ctx, sandbox.DelayParams{Ms: 60000})
			errs <- err
		}()
	}
	waitFor(t, func() bool { return payrpc.PendingCalls(client) == calls })
	if err := client.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for i := 0; i < calls; i++ {
		select {
		case err := <-errs:
			if !errors.Is(err, payrpc.ErrClosed) || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("a call in flight when the server died: want ErrClosed naming the signal, got %v", err)
			}
		case <-deadline:
			t.Fatalf("only %d of %d pending calls failed within 10s", i, calls)
		}
	}
	select {
	case <-client.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done is not closed after the server died")
	}
	if _, err := client.RPC.Health(ctx); !errors.Is(err, payrpc.ErrClosed) {
		t.Fatalf("a call after the server died: want ErrClosed, got %v", err)
	}
	if err := client.Close(); err == nil {
		t.Fatal("Close must report that the server was killed")
	}
}

func TestCloseWaitsForTheServerToExit(t *testing.T) {
	ctx := testContext(t)
	client, err := payrpc.Spawn(ctx, payrpc.WithArgs(serverArgs(t)...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.RPC.Health(ctx); err != nil {
		t.Fatal(err)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if err := client.Process().Signal(syscall.Signal(0)); err == nil {
		t.Fatal("the server still runs after Close")
	}
	if _, err := client.RPC.Health(ctx); !errors.Is(err, payrpc.ErrClosed) {
		t.Fatalf("a call after Close: want ErrClosed, got %v", err)
	}
}

// waitFor polls cond until it holds (10 s at most).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
