package payrpc

import (
	"context"
	"time"

	"github.com/payrpc/payrpc-go/generated/rpc"
	"github.com/payrpc/payrpc-go/generated/sandbox"
)

// CallJournal asks the call journal of the client's profile (sandbox mode only): every call its
// connections made, every notification sent to them and every HTTP exchange made for them,
// secrets masked. Get it with client.Calls(); it asks through the generated client.Sandbox
// methods (sandbox.calls.*).
//
// Verify returns a *CallVerificationError and Wait a *CallsNotSeenError when the journal is
// not as expected; their Error() is the server's message followed by every nearest miss with
// each pointer where it differed. payrpctest.VerifyCalls and friends fail a test with it.
type CallJournal struct {
	sandbox *sandbox.Service
}

// Calls is the call journal of the client's profile.
func (c *Client) Calls() CallJournal { return CallJournal{sandbox: c.Sandbox} }

// VerifyOption says how many entries Verify expects (exactly once when none is given).
type VerifyOption func(*sandbox.CallsVerifyParams)

// Times expects exactly n matching entries.
func Times(n int) VerifyOption {
	return func(p *sandbox.CallsVerifyParams) { p.Times = Ptr(int64(n)) }
}

// AtLeast expects n matching entries or more.
func AtLeast(n int) VerifyOption {
	return func(p *sandbox.CallsVerifyParams) { p.AtLeast = Ptr(int64(n)) }
}

// AtMost expects n matching entries or fewer.
func AtMost(n int) VerifyOption {
	return func(p *sandbox.CallsVerifyParams) { p.AtMost = Ptr(int64(n)) }
}

// WaitOption says what Wait waits for besides the match.
type WaitOption func(*sandbox.CallsWaitParams)

// WaitCount waits for n matching entries (default 1).
func WaitCount(n int) WaitOption {
	return func(p *sandbox.CallsWaitParams) { p.Count = Ptr(int64(n)) }
}

// WaitTimeout is how long the server waits, in real time (default 5s; whole milliseconds). The
// call's context still rules the call: give it a later deadline.
func WaitTimeout(d time.Duration) WaitOption {
	return func(p *sandbox.CallsWaitParams) { p.TimeoutMs = Ptr(d.Milliseconds()) }
}

// After counts only the entries journalled after cursor (a page's Next from List): what came since.
func After(cursor string) WaitOption {
	return func(p *sandbox.CallsWaitParams) { p.After = &cursor }
}

// List returns one page of the journal, oldest first; follow page.Next as params.Cursor.
func (j CallJournal) List(ctx context.Context, params sandbox.CallsListParams) (*rpc.CallPage, error) {
	return j.sandbox.CallsList(ctx, params)
}

// Count returns how many entries match (the zero CallMatch: every entry).
func (j CallJournal) Count(ctx context.Context, match CallMatch) (int, error) {
	count, err := j.sandbox.CallsCount(ctx, sandbox.CallsCountParams{Match: match.wire()})
	if err != nil {
		return 0, err
	}
	return int(count.Count), nil
}

// Find returns the entries that match, oldest first: at most limit (0: the server's 100).
func (j CallJournal) Find(ctx context.Context, match CallMatch, limit int) ([]rpc.CallEntry, error) {
	params := sandbox.CallsFindParams{Match: match.wire()}
	if limit > 0 {
		params.Limit = Ptr(int64(limit))
	}
	found, err := j.sandbox.CallsFind(ctx, params)
	if err != nil {
		return nil, err
	}
	return found.Entries, nil
}

// Verify checks that the entries matching match number what opts say: Times(n), AtLeast(n),
// AtMost(n), exactly one when none is given. It returns a *CallVerificationError when they do
// not; any other error is the client's usual one.
func (j CallJournal) Verify(ctx context.Context, match CallMatch, opts ...VerifyOption) (*rpc.CallVerification, error) {
	wire := match.wire()
	params := sandbox.CallsVerifyParams{Match: &wire}
	for _, opt := range opts {
		opt(&params)
	}
	return j.sandbox.CallsVerify(ctx, params)
}

// VerifySequence checks that entries match each step in turn, in the order they arrived (others
// may come between); it returns a *CallVerificationError when they do not.
func (j CallJournal) VerifySequence(ctx context.Context, steps ...CallMatch) (*rpc.CallVerification, error) {
	sequence := make([]rpc.CallMatch, len(steps))
	for i, step := range steps {
		sequence[i] = step.wire()
	}
	return j.sandbox.CallsVerify(ctx, sandbox.CallsVerifyParams{Sequence: sequence})
}

// Wait returns the matching entries as soon as there are enough (WaitCount, default 1): at once
// when they are there, else when a call, a notification or an exchange brings them, from any
// connection of the profile. It returns a *CallsNotSeenError when the server's wait
// (WaitTimeout, default 5s) runs out first.
func (j CallJournal) Wait(ctx context.Context, match CallMatch, opts ...WaitOption) ([]rpc.CallEntry, error) {
	params := sandbox.CallsWaitParams{Match: match.wire()}
	for _, opt := range opts {
		opt(&params)
	}
	found, err := j.sandbox.CallsWait(ctx, params)
	if err != nil {
		return nil, err
	}
	return found.Entries, nil
}

// Clear empties the profile's journal and returns how many entries it removed.
func (j CallJournal) Clear(ctx context.Context) (int, error) {
	cleared, err := j.sandbox.CallsClear(ctx)
	if err != nil {
		return 0, err
	}
	return int(cleared.Cleared), nil
}
