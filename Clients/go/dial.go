package payrpc

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
)

// DialTCP connects to `payrpc serve --tcp host:port`. With WithToken (or WithProfile) it says
// rpc.hello first; ctx bounds the connection and that handshake.
func DialTCP(ctx context.Context, address string, opts ...Option) (*Client, error) {
	return dial(ctx, "tcp", address, opts)
}

// DialUnix connects to `payrpc serve --unix path`, like DialTCP.
func DialUnix(ctx context.Context, path string, opts ...Option) (*Client, error) {
	return dial(ctx, "unix", path, opts)
}

// halfCloser is a connection whose write side can be closed alone (TCP and Unix sockets).
type halfCloser interface {
	CloseWrite() error
}

func dial(ctx context.Context, network, address string, opts []Option) (*Client, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	var conn net.Conn
	var err error
	switch {
	case o.tls != nil && network != "tcp":
		return nil, errors.New("payrpc: WithTLS is for DialTCP, not a Unix socket")
	case o.tls != nil:
		// The handshake (and the certificate check) is done before the client says anything.
		dialer := tls.Dialer{Config: o.tls}
		conn, err = dialer.DialContext(ctx, network, address)
	default:
		var dialer net.Dialer
		conn, err = dialer.DialContext(ctx, network, address)
	}
	if err != nil {
		return nil, err
	}
	closeWrite := conn.Close
	if hc, ok := conn.(halfCloser); ok {
		closeWrite = hc.CloseWrite
	}
	client, err := newClient(o, conn, conn, closeWrite, conn.Close, nil)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return client.handshake(ctx)
}
