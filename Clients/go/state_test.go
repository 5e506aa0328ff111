package payrpc_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/tatra"
)

// wrongPins spawns a server with opts and returns applicationBlocked after each of count wrong PINs.
func wrongPins(t *testing.T, count int, opts ...payrpc.Option) []bool {
	t.Helper()
	ctx := testContext(t)
	client, err := payrpc.Spawn(ctx, append([]payrpc.Option{payrpc.WithBinary(binary(t))}, opts...)...)
	if err != nil {
		t.Fatalf("spawn: %v", err)
	}
	var blocked []bool
	for i := 0; i < count; i++ {
		var wrong *tatra.WrongPINError
		if err := client.Tatra.Authorize(ctx, tatra.AuthorizeParams{Pincode: "0000"}); !errors.As(err, &wrong) {
			t.Fatalf("a wrong PIN: want *tatra.WrongPINError, got %T %v", err, err)
		}
		blocked = append(blocked, wrong.Detail.ApplicationBlocked)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("the server did not exit cleanly: %v", err)
	}
	return blocked
}

// stateEnv is an environment whose home, data home and temporary directory are inside root.
func stateEnv(t *testing.T, root string) []string {
	for _, name := range []string{"home", "data", "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return append(os.Environ(), "HOME="+filepath.Join(root, "home"), "XDG_DATA_HOME="+filepath.Join(root, "data"),
		"TMPDIR="+filepath.Join(root, "tmp"))
}

func expectBlocked(t *testing.T, got []bool, want ...bool) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("applicationBlocked after each wrong PIN: %v, want %v", got, want)
	}
}

func TestStateArguments(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		args      []string
		dataDir   string
		ephemeral *bool
		want      []string
	}{
		{nil, "", nil, []string{"--ephemeral"}},
		{nil, "", &yes, []string{"--ephemeral"}},
		{[]string{"--ephemeral"}, "", nil, nil},
		{nil, "", &no, nil},
		{nil, "/d", nil, []string{"--data", "/d"}},
		{nil, "d", &no, []string{"--data", "d"}},
		{[]string{"--data", "d"}, "", nil, nil},
		{[]string{"--data=d"}, "", nil, nil},
	} {
		got, err := payrpc.StateArguments(c.args, c.dataDir, c.ephemeral)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("stateArguments(%q, %q, %v) = %q, %v; want %q", c.args, c.dataDir, c.ephemeral, got, err, c.want)
		}
	}
	for _, c := range []struct {
		args      []string
		dataDir   string
		ephemeral *bool
	}{{nil, "d", &yes}, {[]string{"--data", "x"}, "d", nil}, {[]string{"--data", "x"}, "", &yes}} {
		if _, err := payrpc.StateArguments(c.args, c.dataDir, c.ephemeral); err == nil {
			t.Errorf("stateArguments(%q, %q, %v): want an error", c.args, c.dataDir, c.ephemeral)
		}
	}
}

func TestSpawnedServersStartCleanAndLeaveNothing(t *testing.T) {
	root := t.TempDir()
	env := payrpc.WithEnv(stateEnv(t, root))
	expectBlocked(t, wrongPins(t, 3, env), false, false, true)
	expectBlocked(t, wrongPins(t, 1, env), false)
	if left := leftovers(t, root); len(left) > 0 {
		t.Errorf("the servers left %v behind", left)
	}
}

func TestWithDataDirKeepsTheStateThere(t *testing.T) {
	root := t.TempDir()
	env := payrpc.WithEnv(stateEnv(t, root))
	dir := filepath.Join(root, "state")
	expectBlocked(t, wrongPins(t, 3, env, payrpc.WithDataDir(dir)), false, false, true)
	if _, err := os.Stat(filepath.Join(dir, "payrpc.sqlite")); err != nil {
		t.Errorf("no store in the data directory: %v", err)
	}
	expectBlocked(t, wrongPins(t, 1, env, payrpc.WithDataDir(dir)), true)
}

func TestWithEphemeralFalseKeepsTheStateInTheDefaultDataDirectory(t *testing.T) {
	root := t.TempDir()
	env := payrpc.WithEnv(stateEnv(t, root))
	expectBlocked(t, wrongPins(t, 3, env, payrpc.WithEphemeral(false)), false, false, true)
	if _, err := os.Stat(filepath.Join(root, "data", "payrpc", "payrpc.sqlite")); err != nil {
		t.Errorf("no store in the default data directory: %v", err)
	}
	expectBlocked(t, wrongPins(t, 1, env, payrpc.WithEphemeral(false)), true)
	expectBlocked(t, wrongPins(t, 1, env), false) // the default again: a clean server
}
