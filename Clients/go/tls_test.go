package payrpc_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	payrpc "github.com/payrpc/payrpc-go"
	"github.com/payrpc/payrpc-go/generated/rpc"
)

// makeCertificate makes a self-signed certificate for 127.0.0.1 and localhost with openssl and
// answers its PEM and its key's path.
func makeCertificate(t testing.TB, dir, name string) ([]byte, string) {
	t.Helper()
	cert, key := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	out, err := exec.Command("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
		"-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
		"-keyout", key, "-out", cert).CombinedOutput()
	if err != nil {
		t.Fatalf("openssl: %v\n%s", err, out)
	}
	pem, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	return pem, key
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startBalancer runs the deployment's docs/deploy/haproxy.cfg as it is, its three gateway lines
// all at gateway, with a certificate it makes; it answers the TLS address and the certificate.
// The cleanup kills HAProxy; so does the kernel when the test process dies first (Pdeathsig).
func startBalancer(t testing.TB, gateway string) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	certificate, keyFile := makeCertificate(t, dir, "gateway")
	key, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	pem := filepath.Join(dir, "haproxy.pem")
	admin := filepath.Join(dir, "admin.sock")
	adminCfg := filepath.Join(dir, "admin.cfg")
	if err := os.WriteFile(pem, append(append([]byte{}, certificate...), key...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(adminCfg, []byte("global\n    stats socket "+admin+" level admin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tlsAddress := freePort(t)
	cmd := exec.Command("haproxy", "-db", "-f", filepath.Join("..", "..", "docs", "deploy", "haproxy.cfg"), "-f", adminCfg)
	cmd.Env = []string{
		"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "PAYRPC_LISTEN=" + freePort(t), "PAYRPC_TLS_LISTEN=" + tlsAddress,
		"PAYRPC_TLS_PEM=" + pem, "PAYRPC_GATEWAY_1=" + gateway, "PAYRPC_GATEWAY_2=" + gateway, "PAYRPC_GATEWAY_3=" + gateway,
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	// HAProxy says nothing when it is ready: its admin socket answering is the sign.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if conn, err := net.Dial("unix", admin); err == nil {
			_, _ = conn.Write([]byte("show info\n"))
			buf := make([]byte, 64)
			n, _ := conn.Read(buf)
			conn.Close()
			if n > 0 {
				return tlsAddress, certificate
			}
		}
		select {
		case <-exited:
			t.Fatalf("haproxy exited: %s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy did not start: %s", stderr.String())
		}
	}
}

func TestTLSThroughTheDeploymentsHAProxy(t *testing.T) {
	srv := startServer(t)
	address, certificate := startBalancer(t, srv.tcp)
	ctx := testContext(t)
	trusted := x509.NewCertPool()
	trusted.AppendCertsFromPEM(certificate)

	strangerPEM, _ := makeCertificate(t, t.TempDir(), "stranger")
	stranger := x509.NewCertPool()
	stranger.AppendCertsFromPEM(strangerPEM)
	_, err := payrpc.DialTCP(ctx, address, payrpc.WithTLS(&tls.Config{RootCAs: stranger}))
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("an untrusted certificate: want x509.UnknownAuthorityError, got %v", err)
	}
	_, err = payrpc.DialTCP(ctx, address, payrpc.WithTLS(&tls.Config{RootCAs: trusted, ServerName: "payments.example"}))
	var hostname x509.HostnameError
	if !errors.As(err, &hostname) {
		t.Fatalf("another name: want x509.HostnameError, got %v", err)
	}
	if _, err := payrpc.DialUnix(ctx, srv.unix, payrpc.WithTLS(&tls.Config{RootCAs: trusted})); err == nil {
		t.Fatal("WithTLS on a Unix socket was accepted")
	}

	client, err := payrpc.DialTCP(ctx, address, payrpc.WithTLS(&tls.Config{RootCAs: trusted}), payrpc.WithProfile("over-tls"))
	if err != nil {
		t.Fatal(err)
	}
	health, err := client.RPC.Health(ctx)
	if err != nil || health.Status != rpc.ServingStatusServing {
		t.Fatalf("health: %+v %v", health, err)
	}
	hello, err := client.RPC.Hello(ctx, rpc.HelloParams{Profile: payrpc.Ptr("over-tls"), ProtocolVersion: payrpc.Ptr(payrpc.ProtocolVersion)})
	if err != nil || hello.Profile != "over-tls" || hello.Server != "payrpc" {
		t.Fatalf("hello: %+v %v", hello, err)
	}
	if _, err := client.Sandbox.ClockGet(ctx); err != nil {
		t.Fatalf("sandbox.clock.get: %v", err)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}
