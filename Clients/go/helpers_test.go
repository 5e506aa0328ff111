package payrpc_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
)

// binary is the payrpc binary under test ($PAYRPC_BIN); the tests fail without it.
func binary(t testing.TB) string {
	t.Helper()
	path, err := payrpc.FindBinary("")
	if err != nil {
		t.Fatalf("set PAYRPC_BIN to the payrpc binary: %v", err)
	}
	return path
}

// serverArgs are the options every live server gets: its own data folder, results checked too.
func serverArgs(t testing.TB, extra ...string) []string {
	return append([]string{"--data", t.TempDir(), "--validate-results"}, extra...)
}

// testContext is a context that ends with the test (and after two minutes at most).
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// spawn starts a server over stdio for one test; the cleanup closes it and checks it exited 0.
func spawn(t testing.TB, extra ...string) *payrpc.Client {
	t.Helper()
	client, err := payrpc.Spawn(testContext(t), payrpc.WithBinary(binary(t)), payrpc.WithArgs(serverArgs(t, extra...)...))
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

// wireLog records every line a client writes.
type wireLog struct {
	mu    sync.Mutex
	lines [][]byte
}

func tap(client *payrpc.Client) *wireLog {
	log := &wireLog{}
	payrpc.SetWriteTap(client, func(line []byte) {
		log.mu.Lock()
		log.lines = append(log.lines, append([]byte(nil), line...))
		log.mu.Unlock()
	})
	return log
}

// messages decodes the recorded lines.
func (l *wireLog) messages(t testing.TB) []map[string]interface{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]map[string]interface{}, 0, len(l.lines))
	for _, line := range l.lines {
		var m map[string]interface{}
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("the client wrote a line that is not a JSON object: %s", line)
		}
		out = append(out, m)
	}
	return out
}

func (l *wireLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// server is a payrpc server listening on TCP and a Unix socket, started for one test.
type server struct {
	cmd    *exec.Cmd
	tcp    string
	unix   string
	stderr *bytes.Buffer
	done   chan struct{}
}

var tcpListening = regexp.MustCompile(`listening address=(\S+) transport=tcp`)

// startServer runs `payrpc serve --tcp 127.0.0.1:0 --unix <tmp>/payrpc.sock` and reads the
// kernel-chosen port from its log; the cleanup stops it with SIGTERM and checks it exited 0.
func startServer(t testing.TB, extra ...string) *server {
	t.Helper()
	socket := filepath.Join(t.TempDir(), "payrpc.sock")
	args := append([]string{"serve", "--tcp", "127.0.0.1:0", "--unix", socket}, serverArgs(t, extra...)...)
	cmd := exec.Command(binary(t), args...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, unix: socket, stderr: &bytes.Buffer{}, done: make(chan struct{})}
	ready := make(chan struct{})
	var mu sync.Mutex
	go func() {
		defer close(s.done)
		scanner := bufio.NewScanner(pipe)
		signalled := false
		for scanner.Scan() {
			line := scanner.Text()
			mu.Lock()
			s.stderr.WriteString(line + "\n")
			if m := tcpListening.FindStringSubmatch(line); m != nil && s.tcp == "" {
				s.tcp = m[1]
			}
			if !signalled && strings.Contains(line, "payrpc started") {
				signalled = true
				close(ready)
			}
			mu.Unlock()
		}
		if !signalled {
			close(ready)
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-s.done
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("the server did not exit cleanly: %v", err)
		}
	})
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start within 30s")
	}
	mu.Lock()
	defer mu.Unlock()
	if s.tcp == "" {
		t.Fatalf("the server logged no TCP address:\n%s", s.stderr)
	}
	return s
}
