// Package wire holds what the payrpc client and the generated service packages share: the
// Caller interface the generated methods call through, per-call options, the Decimal money
// type, and the error types a call can return.
//
// Applications normally use these through their aliases in package payrpc
// (payrpc.Decimal, payrpc.RPCError, ...).
package wire
