package payrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/payrpc/payrpc-go/generated"
	"github.com/payrpc/payrpc-go/wire"
)

// ProtocolVersion is the protocol version this client speaks (sent in rpc.hello).
const ProtocolVersion = "2026-11"

// ClientName is what the client calls itself in rpc.hello.
const ClientName = "payrpc-go/0.1.0"

// CancelMethod is the notification that cancels a request in flight.
const CancelMethod = "$/cancelRequest"

// Client is one connection to a payrpc server. It is safe for concurrent use: calls from many
// goroutines share the connection and are matched to their answers by id. The embedded
// generated.Services gives the generated methods: client.Tatra.ExecutePayment(ctx, params).
type Client struct {
	generated.Services

	opts    options
	schemas *schemaSet // nil: validation off
	nextID  int64      // atomic

	wmu        sync.Mutex // serialises writes (one line at a time)
	w          io.Writer
	tap        func([]byte) // test hook: sees every line written
	closeWrite func() error // ends our side: the server sees end of input
	closeAll   func() error // tears the connection down
	proc       *process     // the spawned server, or nil

	mu      sync.Mutex
	pending map[int64]chan response
	subs    map[*Subscription]struct{}
	closing bool
	ended   bool
	endErr  error // why the connection ended (wraps ErrClosed)

	readerDone chan struct{}
	closeOnce  sync.Once
	closeErr   error
}

// response is what a call waits for: an answer or the end of the connection.
type response struct {
	result json.RawMessage
	err    *wire.RPCError
	closed error
}

// message is any line from the server: a response or a notification.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *wire.RPCError  `json:"error"`
}

// request is a request or (without ID) a notification as sent.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

func newClient(o options, r io.Reader, w io.Writer, closeWrite, closeAll func() error, proc *process) (*Client, error) {
	c := &Client{
		opts: o, w: w, closeWrite: closeWrite, closeAll: closeAll, proc: proc,
		pending: map[int64]chan response{}, subs: map[*Subscription]struct{}{},
		readerDone: make(chan struct{}),
	}
	if o.validate {
		schemas, err := loadSchemas(generated.Document)
		if err != nil {
			return nil, err
		}
		c.schemas = schemas
	}
	c.Services = generated.New(c)
	go c.readLoop(r)
	return c, nil
}

// handshake says rpc.hello first when a token or profile was given; on failure it closes c.
func (c *Client) handshake(ctx context.Context) (*Client, error) {
	if c.opts.token == "" && c.opts.profile == "" {
		return c, nil
	}
	params := map[string]interface{}{"client": ClientName, "protocolVersion": ProtocolVersion}
	if c.opts.token != "" {
		params["token"] = c.opts.token
	}
	if c.opts.profile != "" {
		params["profile"] = c.opts.profile
	}
	if err := c.Call(ctx, "rpc.hello", params, nil); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// Call calls method with params (any value encoding/json turns into an object or an array;
// nil for none) and unmarshals the result into result (a pointer; nil to ignore it).
//
// The context's deadline is sent as params._meta.timeoutMs; when ctx is cancelled or its
// deadline passes, the server is sent $/cancelRequest and Call returns an error wrapping
// ctx.Err() without waiting. Params that break the method's schema return a *ValidationError
// before anything is sent; an error answer returns the most specific type (a generated domain
// error, or *RPCError); the end of the connection returns an error wrapping ErrClosed.
func (c *Client) Call(ctx context.Context, method string, params, result interface{}, opts ...CallOption) error {
	if ctx == nil {
		ctx = context.Background()
	}
	o, err := wire.ApplyCallOptions(opts)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("payrpc: %s: %w", method, err)
	}
	encoded, err := c.wireParams(ctx, method, params, o)
	if err != nil {
		return err
	}
	id := atomic.AddInt64(&c.nextID, 1)
	line, err := json.Marshal(request{JSONRPC: "2.0", ID: &id, Method: method, Params: encoded})
	if err != nil {
		return fmt.Errorf("payrpc: %s: %w", method, err)
	}
	answer := make(chan response, 1)
	if err := c.register(id, answer); err != nil {
		return fmt.Errorf("payrpc: %s: %w", method, err)
	}
	if err := c.write(line); err != nil {
		c.forget(id)
		return fmt.Errorf("payrpc: %s: %w", method, err)
	}
	select {
	case r := <-answer:
		return c.finish(method, r, result)
	case <-ctx.Done():
		if c.forget(id) {
			c.cancel(id)
		}
		return fmt.Errorf("payrpc: %s: %w", method, ctx.Err())
	}
}

// Notify sends a notification (no answer); its params are validated like a call's. A ctx
// that is already done stops it before anything is sent.
func (c *Client) Notify(ctx context.Context, method string, params interface{}) error {
	if ctx != nil && ctx.Err() != nil {
		return fmt.Errorf("payrpc: %s: %w", method, ctx.Err())
	}
	encoded, err := c.wireParams(context.Background(), method, params, wire.CallOptions{})
	if err != nil {
		return err
	}
	line, err := json.Marshal(request{JSONRPC: "2.0", Method: method, Params: encoded})
	if err != nil {
		return err
	}
	if err := c.usable(); err != nil {
		return err
	}
	return c.write(line)
}

func (c *Client) finish(method string, r response, result interface{}) error {
	if r.closed != nil {
		return fmt.Errorf("payrpc: %s: %w", method, r.closed)
	}
	if r.err != nil {
		return decodeError(r.err)
	}
	if c.schemas != nil {
		if err := c.schemas.validateResult(method, r.result); err != nil {
			return err
		}
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(r.result, result); err != nil {
		return fmt.Errorf("payrpc: the result of %s: %w", method, err)
	}
	return nil
}

func (c *Client) usable() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return c.endErr
	}
	if c.closing {
		return fmt.Errorf("%w (Close was called)", ErrClosed)
	}
	return nil
}

func (c *Client) register(id int64, answer chan response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.ended:
		return c.endErr
	case c.closing:
		return fmt.Errorf("%w (Close was called)", ErrClosed)
	}
	c.pending[id] = answer
	return nil
}

// forget drops a call nobody waits for; it reports whether the call was still in flight.
func (c *Client) forget(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	return ok && !c.ended
}

// cancel tells the server to stop request id (best effort).
func (c *Client) cancel(id int64) {
	params, _ := json.Marshal(map[string]int64{"id": id})
	line, _ := json.Marshal(request{JSONRPC: "2.0", Method: CancelMethod, Params: params})
	if err := c.write(line); err != nil {
		c.opts.logf("payrpc: sending %s for %d: %v", CancelMethod, id, err)
	}
}

func (c *Client) write(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.w == nil {
		return fmt.Errorf("%w (Close was called)", ErrClosed)
	}
	if c.tap != nil {
		c.tap(line)
	}
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	if _, err := c.w.Write(buf); err != nil {
		return fmt.Errorf("%w: writing: %v", ErrClosed, err)
	}
	return nil
}

// readLoop reads the server's lines until the connection ends.
func (c *Client) readLoop(r io.Reader) {
	defer close(c.readerDone)
	reader := bufio.NewReaderSize(r, 64*1024)
	var err error
	for err == nil {
		var line []byte
		line, err = reader.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(line)
		}
	}
	c.end(err)
}

func (c *Client) dispatch(line []byte) {
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			c.opts.logf("payrpc: the server sent a line that is not JSON: %.200s", line)
			return
		}
		for _, item := range batch {
			c.dispatchOne(item)
		}
		return
	}
	c.dispatchOne(line)
}

func (c *Client) dispatchOne(raw []byte) {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		c.opts.logf("payrpc: the server sent a message that is not a JSON-RPC object: %.200s", raw)
		return
	}
	switch {
	case m.Method != nil && m.ID == nil:
		c.notify(*m.Method, m.Params)
	case m.ID != nil && (m.Result != nil || m.Error != nil):
		r := response{result: m.Result, err: m.Error}
		if string(m.ID) == "null" {
			c.deliverOrphan(r)
			return
		}
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			c.opts.logf("payrpc: an answer with an id this client never sent: %s", m.ID)
			return
		}
		c.mu.Lock()
		answer, ok := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if !ok {
			c.opts.logf("payrpc: the answer to %d arrived after its call gave up", id)
			return
		}
		answer <- r
	default:
		c.opts.logf("payrpc: the server sent an unexpected message: %.200s", raw)
	}
}

// deliverOrphan gives an error without an id to the one call in flight, when there is one.
func (c *Client) deliverOrphan(r response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) != 1 {
		c.opts.logf("payrpc: the server reported an error without an id: %+v", r.err)
		return
	}
	for id, answer := range c.pending {
		delete(c.pending, id)
		answer <- r
	}
}

// end runs when the connection is over: every waiting call fails with ErrClosed and every
// subscription's channel closes once drained.
func (c *Client) end(readErr error) {
	reason := "the server closed the connection"
	if readErr != nil && !errors.Is(readErr, io.EOF) && !errors.Is(readErr, os.ErrClosed) {
		reason = "reading from the server failed: " + readErr.Error()
	}
	if c.proc != nil {
		if status := c.proc.waitExit(2 * time.Second); status != "" {
			reason = "the server exited (" + status + ")"
		}
	}
	c.mu.Lock()
	if c.closing {
		reason = "Close was called"
	}
	c.ended = true
	c.endErr = fmt.Errorf("%w (%s)", ErrClosed, reason)
	pending := c.pending
	c.pending = map[int64]chan response{}
	subs := make([]*Subscription, 0, len(c.subs))
	for s := range c.subs {
		subs = append(subs, s)
	}
	c.mu.Unlock()
	for _, answer := range pending {
		answer <- response{closed: c.endErr}
	}
	for _, s := range subs {
		s.end()
	}
}

// Close ends the connection. New calls fail at once; calls in flight get their answers if the
// server sends them within the close timeout (WithCloseTimeout), else fail with ErrClosed. A
// spawned server sees the end of its input, drains and exits (it is killed if it does not in
// time); Close returns an error if it exited unsuccessfully. Close is idempotent.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		timeout := c.opts.closeTimeout
		c.wmu.Lock()
		_ = c.closeWrite()
		c.w = nil
		c.wmu.Unlock()
		if c.proc != nil {
			select {
			case <-c.readerDone:
			case <-time.After(timeout):
				c.opts.logf("payrpc: the server did not exit %s after its input closed; killing it", timeout)
				_ = c.proc.cmd.Process.Kill()
				<-c.readerDone
			}
			c.closeErr = c.proc.result()
			return
		}
		c.waitForPending(timeout)
		_ = c.closeAll()
		<-c.readerDone
	})
	return c.closeErr
}

// waitForPending waits until no call is in flight, the connection ended, or timeout passed.
func (c *Client) waitForPending(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		idle := len(c.pending) == 0 || c.ended
		c.mu.Unlock()
		if idle {
			return
		}
		select {
		case <-c.readerDone:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Process is the spawned server's process (nil for TCP and Unix connections).
func (c *Client) Process() *os.Process {
	if c.proc == nil {
		return nil
	}
	return c.proc.cmd.Process
}

// Done is closed when the connection has ended (the server went away or Close finished).
func (c *Client) Done() <-chan struct{} { return c.readerDone }

// Err is why the connection ended (it wraps ErrClosed), or nil while it is open.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.endErr
}
