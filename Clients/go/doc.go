// Package payrpc is the Go client of payrpc, a gateway that serves mobile payment SDK
// interfaces as JSON-RPC 2.0 over newline-delimited JSON.
//
// Start a server as a child process with Spawn (payrpc serve --stdio) or connect to one with
// DialTCP or DialUnix. A *Client is safe for concurrent use: any number of goroutines may call
// at once on one connection. The generated services hang off the client:
//
//	client.Tatra.ExecutePayment(ctx, tatra.ExecutePaymentParams{Amount: "10.00", ...})
//
// A call honours its context: the deadline is sent to the server as params._meta.timeoutMs, and
// a cancelled or expired context sends $/cancelRequest and returns ctx.Err() at once. Params
// are validated against the schemas before they are sent, results and notifications when they
// arrive. Errors are typed: *RPCError for gateway errors (with sentinels for errors.Is),
// generated domain error types such as *tatra.WrongPINError (errors.As), *ValidationError, and
// ErrClosed when the connection ends first.
package payrpc
