/// Where a connection's session is in its life, as both of its faces (``RPCSession`` for
/// JSON-RPC, ``MCPSession`` for MCP) track it: whether the input has ended, whether the session
/// has finished, and whether reading is paused because too many calls are pending. A value: the
/// session asks it and performs what it answers (finish the connection, pause or resume reading).
package struct SessionLife {
    /// The peer sent EOF: no more lines come.
    package private(set) var inputHasEnded = false
    /// The connection is finished or closed: nothing more is read or written.
    package private(set) var finished = false
    private var readingPaused = false

    /// A session whose input is open and whose reading runs.
    package init() {}

    /// The input ended.
    package mutating func endInput() {
        inputHasEnded = true
    }

    /// The connection closed.
    package mutating func close() {
        finished = true
    }

    /// Whether the session finishes now: its input has ended, it has nothing pending (`idle`) and
    /// it has not finished yet. It is finished from then on.
    package mutating func finishes(idle: Bool) -> Bool {
        guard inputHasEnded, idle, !finished else { return false }
        finished = true
        return true
    }

    /// Whether reading must now be paused (true) or resumed (false) with `pending` calls against a
    /// limit of `limit`; nil when it stays as it is.
    package mutating func reading(pending: Int, limit: Int) -> Bool? {
        let shouldPause = pending >= limit
        guard shouldPause != readingPaused else { return nil }
        readingPaused = shouldPause
        return shouldPause
    }
}
