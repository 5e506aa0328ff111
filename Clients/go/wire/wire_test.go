package wire

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecimalTravelsAsAString(t *testing.T) {
	out, err := json.Marshal(struct{ A Decimal }{"10.00"})
	if err != nil || string(out) != `{"A":"10.00"}` {
		t.Fatalf("marshal: %s %v", out, err)
	}
	for _, bad := range []Decimal{"1e3", "01.0", "", "1.", " 1"} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%q was marshalled", bad)
		}
	}
	var d Decimal
	if err := json.Unmarshal([]byte(`10.5`), &d); err == nil {
		t.Fatal("a JSON number was accepted as money")
	}
	if err := json.Unmarshal([]byte(`"-0.25"`), &d); err != nil || d != "-0.25" {
		t.Fatalf("unmarshal: %q %v", d, err)
	}
	if Decimal("10.0").Cmp("10.00") != 0 || Decimal("9.99").Cmp("10") != -1 {
		t.Fatal("Cmp compares values")
	}
	r, _ := Decimal("-0.001").Rat()
	if got := DecimalFromRat(r, 2); got != "0.00" {
		t.Fatalf("DecimalFromRat: %q", got)
	}
}

func TestErrorsMatchByCode(t *testing.T) {
	err := error(&RPCError{Code: CodeDeadlineExceeded, Message: "late"})
	if !errors.Is(err, ErrDeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrCancelled) {
		t.Fatal("errors.Is by code")
	}
	table := ErrorTable{-33001: func(base DomainError) error { return &base }}
	typed := DecodeError(&RPCError{Code: -33001, Data: json.RawMessage(`{"type":"x","status":"NOT_FOUND"}`)}, table)
	var domain *DomainError
	if !errors.As(typed, &domain) || domain.Type != "x" || domain.Status != "NOT_FOUND" {
		t.Fatalf("DecodeError: %#v", typed)
	}
	unknown := DecodeError(&RPCError{Code: -34999, Data: json.RawMessage(`[1`)})
	if !errors.As(unknown, &domain) || domain.Code != -34999 {
		t.Fatalf("an unknown domain code: %#v", unknown)
	}
	gateway := DecodeError(&RPCError{Code: CodeMethodNotFound}, table)
	if _, ok := gateway.(*RPCError); !ok {
		t.Fatalf("a gateway code: %#v", gateway)
	}
	v := (&RPCError{Data: json.RawMessage(`{"violations":[{"pointer":"/a","keyword":"type","message":"m"}]}`)}).Violations()
	if len(v) != 1 || v[0].Pointer != "/a" {
		t.Fatalf("Violations: %+v", v)
	}
	msg := (&ValidationError{What: "params of x", Violations: v}).Error()
	if !strings.Contains(msg, "/a: m (type)") {
		t.Fatalf("ValidationError: %s", msg)
	}
}

func TestIdempotencyKeyLength(t *testing.T) {
	if _, err := ApplyCallOptions([]CallOption{IdempotencyKey("")}); err == nil {
		t.Fatal("an empty key was accepted")
	}
	if _, err := ApplyCallOptions([]CallOption{IdempotencyKey(strings.Repeat("k", 256))}); err == nil {
		t.Fatal("a 256-byte key was accepted")
	}
	o, err := ApplyCallOptions([]CallOption{nil, IdempotencyKey("order-1")})
	if err != nil || o.IdempotencyKey != "order-1" {
		t.Fatalf("%+v %v", o, err)
	}
}
