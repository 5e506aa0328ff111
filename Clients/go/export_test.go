package payrpc

// SetWriteTap lets the tests see every line the client writes (the wire, as sent).
func SetWriteTap(c *Client, tap func(line []byte)) {
	c.wmu.Lock()
	c.tap = tap
	c.wmu.Unlock()
}

// PendingCalls is how many calls wait for an answer.
func PendingCalls(c *Client) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// StateArguments is stateArguments, for the tests.
var StateArguments = stateArguments

// DescribeCallFailure is describeCallFailure, for the tests.
var DescribeCallFailure = describeCallFailure

// DecodeError is decodeError, for the tests.
var DecodeError = decodeError
