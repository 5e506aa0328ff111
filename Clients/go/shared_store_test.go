package payrpc_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/pbba"
	"github.com/payrpc/payrpc-go/generated/rpc"
)

// storeKey is a store key, as `openssl rand -hex 32` makes one.
var storeKey = strings.Repeat("5a17c0de", 8)

// postgresCluster is a throw-away PostgreSQL server (scripts/test-postgres): a temporary
// directory, a free loopback port, no system service; removed when the test ends.
type postgresCluster struct {
	t         testing.TB
	directory string
	url       string
}

func (c *postgresCluster) run(args ...string) string {
	c.t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "test-postgres"))
	if err != nil {
		c.t.Fatal(err)
	}
	out, err := exec.Command(script, args...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			c.t.Fatalf("scripts/test-postgres %s: %v: %s", strings.Join(args, " "), err, exit.Stderr)
		}
		c.t.Fatalf("scripts/test-postgres %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func startPostgres(t testing.TB) *postgresCluster {
	t.Helper()
	cluster := &postgresCluster{t: t}
	lines := strings.Fields(cluster.run("start"))
	if len(lines) != 2 {
		t.Fatalf("scripts/test-postgres start printed %q, not a directory and a URL", lines)
	}
	cluster.directory, cluster.url = lines[0], lines[1]
	t.Cleanup(func() { cluster.run("remove", cluster.directory) })
	return cluster
}

func TestAStoppedDatabaseIsStoreUnavailableAndARetryGoesThroughAfter(t *testing.T) {
	cluster := startPostgres(t)
	ctx := testContext(t)
	client, err := payrpc.Spawn(ctx, payrpc.WithBinary(binary(t)), payrpc.WithArgs("--store", cluster.url),
		payrpc.WithEnv(append(os.Environ(), "PAYRPC_STORE_KEY="+storeKey)))
	if err != nil {
		t.Fatalf("spawn: %v", err)
	}
	defer func() {
		if err := client.Close(); err != nil {
			t.Errorf("the server did not exit cleanly: %v", err)
		}
	}()
	before, err := client.Pbba.SubmitPaymentRequest(ctx, pbba.SubmitPaymentRequestParams{Amount: "7.00", Currency: "GBP", Reference: "before"})
	if err != nil {
		t.Fatal(err)
	}
	cluster.run("stop", cluster.directory)
	whileDown := pbba.SubmitPaymentRequestParams{Amount: "8.00", Currency: "GBP", Reference: "while down"}
	_, err = client.Pbba.SubmitPaymentRequest(ctx, whileDown, payrpc.IdempotencyKey("retry-1"))
	var rpcErr *payrpc.RPCError
	if !errors.Is(err, payrpc.ErrStoreUnavailable) || !errors.As(err, &rpcErr) {
		t.Fatalf("a write while the database was stopped: %v, not ErrStoreUnavailable", err)
	}
	if rpcErr.Code != -32009 || !rpcErr.Retryable() {
		t.Fatalf("-32009 retryable expected, got %+v", rpcErr)
	}
	// The server kept serving what needs no store.
	if health, err := client.RPC.Health(ctx); err != nil || health.Status != rpc.ServingStatusServing {
		t.Fatalf("health while the database was stopped: %+v %v", health, err)
	}
	cluster.run("restart", cluster.directory)
	retried, err := client.Pbba.SubmitPaymentRequest(ctx, whileDown, payrpc.IdempotencyKey("retry-1"))
	if err != nil {
		t.Fatalf("the retry after the database came back: %v", err)
	}
	// The retry ran once: the same key answers the same payment request again.
	again, err := client.Pbba.SubmitPaymentRequest(ctx, whileDown, payrpc.IdempotencyKey("retry-1"))
	if err != nil || !reflect.DeepEqual(again, retried) {
		t.Fatalf("the key's answer again: %+v %v, first %+v", again, err, retried)
	}
	// What was written before the database went away is still there.
	status, err := client.Pbba.GetPaymentStatus(ctx, pbba.GetPaymentStatusParams{SecureToken: before.SecureToken})
	if err != nil || status.Status != pbba.PaymentStatusInProgress {
		t.Fatalf("the payment request made before: %+v %v", status, err)
	}
}
