package payrpc

import (
	"crypto/tls"
	"io"
	"time"
)

// Option configures Spawn, DialTCP and DialUnix.
type Option func(*options)

type options struct {
	binary       string
	args         []string
	dataDir      string
	ephemeral    *bool
	env          []string
	dir          string
	stderr       io.Writer
	token        string
	profile      string
	validate     bool
	closeTimeout time.Duration
	logf         func(format string, args ...interface{})
	tls          *tls.Config
}

func defaultOptions() options {
	return options{validate: true, closeTimeout: 10 * time.Second, logf: func(string, ...interface{}) {}}
}

// WithBinary sets the payrpc binary Spawn starts (default: $PAYRPC_BIN, else payrpc on PATH).
func WithBinary(path string) Option { return func(o *options) { o.binary = path } }

// WithArgs adds arguments after `payrpc serve --stdio` (Spawn only): "--seed", "7", ...
func WithArgs(args ...string) Option {
	return func(o *options) { o.args = append(o.args, args...) }
}

// WithDataDir makes the spawned server keep its state (store, server key) in dir (`--data dir`),
// where the next server spawned with it finds it again (Spawn only). Without it the server is
// ephemeral, see WithEphemeral.
func WithDataDir(dir string) Option { return func(o *options) { o.dataDir = dir } }

// WithEphemeral(true), the default without WithDataDir, starts `serve --ephemeral`: the state
// lives in a temporary directory the server removes when it exits, so every spawned server
// starts clean. WithEphemeral(false) keeps it in the server's default data directory
// ($XDG_DATA_HOME/payrpc, else ~/.local/share/payrpc). Spawn only.
func WithEphemeral(ephemeral bool) Option { return func(o *options) { o.ephemeral = &ephemeral } }

// WithEnv sets the environment of the spawned server (default: this process's).
func WithEnv(env []string) Option { return func(o *options) { o.env = env } }

// WithDir sets the working directory of the spawned server.
func WithDir(dir string) Option { return func(o *options) { o.dir = dir } }

// WithServerLog sends the spawned server's stderr (its log) to w; by default it is discarded.
func WithServerLog(w io.Writer) Option { return func(o *options) { o.stderr = w } }

// WithToken makes the client say rpc.hello with this token first (servers started with
// --auth-token-file require it on TCP and Unix connections).
func WithToken(token string) Option { return func(o *options) { o.token = token } }

// WithTLS makes DialTCP speak TLS with this configuration, as to the gateways behind HAProxy's TLS
// address: RootCAs are the authorities it trusts, and ServerName (by default the host dialled) the
// name the certificate must carry. A certificate it does not trust fails DialTCP with the
// verification error; the rpc.hello still goes first, inside TLS.
func WithTLS(config *tls.Config) Option { return func(o *options) { o.tls = config } }

// WithProfile makes the client say rpc.hello with this state profile first.
func WithProfile(profile string) Option { return func(o *options) { o.profile = profile } }

// WithoutValidation turns off the client's schema checks of params, results and notifications
// (the server still checks params).
func WithoutValidation() Option { return func(o *options) { o.validate = false } }

// WithCloseTimeout bounds how long Close waits for the server to finish what is in flight and,
// for a spawned server, to exit before it is killed (default 10s).
func WithCloseTimeout(d time.Duration) Option { return func(o *options) { o.closeTimeout = d } }

// WithLogf receives the client's reports of protocol anomalies (lines that are not JSON,
// answers nobody waits for, notifications that break their schema). Default: none.
func WithLogf(logf func(format string, args ...interface{})) Option {
	return func(o *options) {
		if logf != nil {
			o.logf = logf
		}
	}
}
