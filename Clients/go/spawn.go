package payrpc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// process is a spawned server: its command and, once waited for, how it ended.
type process struct {
	cmd     *exec.Cmd
	once    sync.Once
	exited  chan struct{}
	waitErr error
}

// startWait reaps the process in the background (only once the reader saw the end of its
// output, as exec.Cmd requires).
func (p *process) startWait() {
	p.once.Do(func() {
		go func() {
			p.waitErr = p.cmd.Wait()
			close(p.exited)
		}()
	})
}

// waitExit waits up to d for the process to end and describes how it did ("" if still running).
func (p *process) waitExit(d time.Duration) string {
	p.startWait()
	select {
	case <-p.exited:
		if p.waitErr == nil {
			return "exit status 0"
		}
		return p.waitErr.Error()
	case <-time.After(d):
		return ""
	}
}

// result waits for the process and returns an error unless it exited with status 0.
func (p *process) result() error {
	p.startWait()
	<-p.exited
	if p.waitErr != nil {
		return fmt.Errorf("payrpc: the server exited unsuccessfully: %w", p.waitErr)
	}
	return nil
}

// FindBinary returns the payrpc binary to start: path when given, else $PAYRPC_BIN, else
// payrpc on PATH.
func FindBinary(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	if env := os.Getenv("PAYRPC_BIN"); env != "" {
		return env, nil
	}
	found, err := exec.LookPath("payrpc")
	if err != nil {
		return "", errors.New("payrpc: binary not found: use WithBinary, set PAYRPC_BIN, or put payrpc on PATH")
	}
	return found, nil
}

// Spawn starts `payrpc serve --stdio` (plus WithArgs) as a child process and connects to its
// stdin and stdout. ctx bounds the start only (the rpc.hello sent first with WithProfile or
// WithToken); the server lives until Close, which ends its input so it drains and exits.
// The server starts clean and forgets everything when it exits (`serve --ephemeral`) unless
// WithDataDir or WithEphemeral(false) keeps its state.
func Spawn(ctx context.Context, opts ...Option) (*Client, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	binary, err := FindBinary(o.binary)
	if err != nil {
		return nil, err
	}
	state, err := stateArguments(o.args, o.dataDir, o.ephemeral)
	if err != nil {
		return nil, err
	}
	argv := append(append([]string{"serve", "--stdio"}, state...), o.args...)
	cmd := exec.Command(binary, argv...)
	cmd.Env = o.env
	cmd.Dir = o.dir
	cmd.Stderr = o.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("payrpc: starting %s: %w", binary, err)
	}
	proc := &process{cmd: cmd, exited: make(chan struct{})}
	client, err := newClient(o, stdout, stdin, stdin.Close, stdin.Close, proc)
	if err != nil {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	return client.handshake(ctx)
}
