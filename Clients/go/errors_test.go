package payrpc_test

import (
	"errors"
	"os"
	"testing"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/pbba"
	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/generated/tatra"
	"github.com/payrpc/payrpc-go/wire"
)

func TestWrongPinsAreTypedErrorsUntilTheApplicationIsBlocked(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	var blocked []bool
	for i := 0; i < 3; i++ {
		err := client.Tatra.Authorize(ctx, tatra.AuthorizeParams{Pincode: "0000"})
		var wrong *tatra.WrongPINError
		if !errors.As(err, &wrong) {
			t.Fatalf("a wrong PIN: want *tatra.WrongPINError, got %T %v", err, err)
		}
		blocked = append(blocked, wrong.Detail.ApplicationBlocked)
		// The same error is also each of the types it wraps.
		var service *tatra.ServiceError
		var domain *payrpc.DomainError
		var rpcErr *payrpc.RPCError
		if !errors.As(err, &service) || !errors.As(err, &domain) || !errors.As(err, &rpcErr) {
			t.Fatalf("errors.As through the wrappers failed for %v", err)
		}
		if rpcErr.Code != tatra.CodeWrongPIN || domain.Type != "wrongPin" || domain.Status == "" {
			t.Fatalf("wrong PIN error fields: code %d type %q status %q", rpcErr.Code, domain.Type, domain.Status)
		}
	}
	if blocked[0] || blocked[1] || !blocked[2] {
		t.Fatalf("applicationBlocked over three wrong PINs: %v, want [false false true]", blocked)
	}
	var wrong *tatra.WrongPINError
	if err := client.Tatra.Authorize(ctx, tatra.AuthorizeParams{Pincode: "1234"}); !errors.As(err, &wrong) {
		t.Fatalf("the right PIN of a blocked application: want WrongPINError, got %v", err)
	}
	if err := client.Sandbox.TatraResetProfile(ctx); err != nil {
		t.Fatal(err)
	}
	if err := client.Tatra.Authorize(ctx, tatra.AuthorizeParams{Pincode: "1234"}); err != nil {
		t.Fatalf("the right PIN after resetProfile: %v", err)
	}
}

func TestAmountLimitIsItsOwnType(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	contact := tatra.Contact{FullName: "Jana Nováková", Phones: []string{"+421900123456"}}
	_, err := client.Tatra.ExecutePayment(ctx, tatra.ExecutePaymentParams{Amount: "5000.01", Contact: &contact})
	var limit *tatra.AmountLimitError
	if !errors.As(err, &limit) || limit.Status != "OUT_OF_RANGE" || limit.Detail.Type != tatra.TatraErrorTypeAmountLimit {
		t.Fatalf("want AmountLimitError OUT_OF_RANGE, got %T %v", err, err)
	}
	var wrong *tatra.WrongPINError
	if errors.As(err, &wrong) {
		t.Fatal("an AmountLimitError must not match WrongPINError")
	}
	text, err := client.Tatra.ExecutePayment(ctx, tatra.ExecutePaymentParams{Amount: "12.50", Contact: &contact, Reference: payrpc.Ptr("Lunch")})
	if err != nil || text == "" {
		t.Fatalf("a payment within the limits: %q %v", text, err)
	}
}

func TestGatewayErrors(t *testing.T) {
	ctx := testContext(t)
	client, err := payrpc.Spawn(ctx, payrpc.WithArgs(serverArgs(t)...), payrpc.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	err = client.Call(ctx, "nope.nothing", nil, nil)
	var rpcErr *payrpc.RPCError
	if !errors.Is(err, payrpc.ErrMethodNotFound) || !errors.As(err, &rpcErr) || rpcErr.Code != wire.CodeMethodNotFound {
		t.Fatalf("an unknown method: want MethodNotFound, got %v", err)
	}
	if errors.Is(err, payrpc.ErrInvalidParams) {
		t.Fatal("MethodNotFound must not match ErrInvalidParams")
	}
	// Without local validation the server reports the violation.
	_, err = client.RPC.Hello(ctx, rpc.HelloParams{Profile: payrpc.Ptr("no spaces allowed")})
	if !errors.Is(err, payrpc.ErrInvalidParams) || !errors.As(err, &rpcErr) {
		t.Fatalf("a bad profile: want InvalidParams, got %v", err)
	}
	if v := rpcErr.Violations(); len(v) != 1 || v[0].Pointer != "/profile" {
		t.Fatalf("the server's violations: %+v", v)
	}
}

func TestInvalidParamsAreRefusedBeforeSending(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	wire := tap(client)
	_, err := client.RPC.Hello(ctx, rpc.HelloParams{Profile: payrpc.Ptr("no spaces allowed")})
	var invalid *payrpc.ValidationError
	if !errors.As(err, &invalid) || invalid.Pointer() != "/profile" {
		t.Fatalf("want a ValidationError at /profile, got %v", err)
	}
	// Money must be a decimal string: a malformed Decimal is not sent either.
	_, err = client.Pbba.SubmitPaymentRequest(ctx, pbba.SubmitPaymentRequestParams{Amount: "1e3", Currency: "GBP", Reference: "x"})
	if err == nil {
		t.Fatal("a malformed Decimal was accepted")
	}
	if n := wire.count(); n != 0 {
		t.Fatalf("invalid params were sent: %d lines", n)
	}
}

func TestAnIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	client := spawn(t)
	ctx := testContext(t)
	params := pbba.SubmitPaymentRequestParams{Amount: "3.00", Currency: "GBP", Reference: "Once"}
	first, err := client.Pbba.SubmitPaymentRequest(ctx, params, payrpc.IdempotencyKey("order-1"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := client.Pbba.SubmitPaymentRequest(ctx, params, payrpc.IdempotencyKey("order-1"))
	if err != nil || *again != *first {
		t.Fatalf("the replay differs: %+v vs %+v (%v)", again, first, err)
	}
	other, err := client.Pbba.SubmitPaymentRequest(ctx, params)
	if err != nil || other.SecureToken == first.SecureToken {
		t.Fatalf("a call without the key must be new: %+v (%v)", other, err)
	}
	params.Amount = "4.00"
	_, err = client.Pbba.SubmitPaymentRequest(ctx, params, payrpc.IdempotencyKey("order-1"))
	if !errors.Is(err, payrpc.ErrIdempotencyConflict) {
		t.Fatalf("the key with other params: want IdempotencyConflict, got %v", err)
	}
}

func TestTokenOverTCPAndUnix(t *testing.T) {
	tokenFile := t.TempDir() + "/token"
	if err := os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, "--auth-token-file", tokenFile)
	ctx := testContext(t)
	client, err := payrpc.DialTCP(ctx, srv.tcp, payrpc.WithToken("s3cret-token"))
	if err != nil {
		t.Fatal(err)
	}
	if health, err := client.RPC.Health(ctx); err != nil || health.Status != rpc.ServingStatusServing {
		t.Fatalf("health with the token: %+v %v", health, err)
	}
	client.Close()

	anonymous, err := payrpc.DialTCP(ctx, srv.tcp)
	if err != nil {
		t.Fatal(err)
	}
	if health, err := anonymous.RPC.Health(ctx); err != nil || health.Status != rpc.ServingStatusServing {
		t.Fatalf("health without a token (a balancer's health check): %+v %v", health, err)
	}
	if _, err := anonymous.RPC.Discover(ctx); !errors.Is(err, payrpc.ErrUnauthenticated) {
		t.Fatalf("without the token: want Unauthenticated, got %v", err)
	}
	anonymous.Close()

	if _, err := payrpc.DialUnix(ctx, srv.unix, payrpc.WithToken("wrong")); !errors.Is(err, payrpc.ErrUnauthenticated) {
		t.Fatalf("a wrong token: want Unauthenticated from DialUnix, got %v", err)
	}
	unix, err := payrpc.DialUnix(ctx, srv.unix, payrpc.WithToken("s3cret-token"), payrpc.WithProfile("unix"))
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close()
	hello, err := unix.RPC.Hello(ctx, rpc.HelloParams{Token: payrpc.Ptr("s3cret-token"), Profile: payrpc.Ptr("unix-2")})
	if err != nil || hello.Profile != "unix-2" {
		t.Fatalf("hello: %+v %v", hello, err)
	}
}
