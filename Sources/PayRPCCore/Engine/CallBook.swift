import PayRPCJSON

/// A call a session tracks in its ``CallBook`` until it is answered or cancelled.
package protocol TrackedCall {
    /// Stops the call's task and its timers (the connection closed, or the call was cancelled).
    func stop()
}

/// The calls one connection has not answered yet, kept by its session (JSON-RPC's or MCP's) on
/// the loop thread: each under a token, found by its request id for a cancellation
/// (`$/cancelRequest`, `notifications/cancelled`), and the connection's ordered sequence
/// (``MethodTraits/ordered``): the one ordered call running as a task and those waiting their
/// turn, in arrival order.
///
/// One type for both faces, so that the rules (an id found once, the order released when its
/// call leaves, the waiting calls counted against the connection's in-flight limit) are written
/// once. A value the session owns; loop-thread only.
package struct CallBook<Record: TrackedCall> {
    /// A call waiting its turn: started when the ordered call before it has left; `token` names
    /// its record when the session tracks it meanwhile (MCP reports progress on it and lets it be
    /// cancelled), nil when it has none yet (JSON-RPC's).
    private struct Turn {
        let token: UInt64?
        let start: () -> Void
    }

    private var records: [UInt64: Record] = [:]
    private var tokensByID: [[UInt8]: UInt64] = [:]
    private var idKeys: [UInt64: [UInt8]] = [:]
    private var nextToken: UInt64 = 0
    private var orderedRunning: UInt64?
    private var turns: [Turn] = []

    /// An empty book.
    package init() {}

    /// The calls tracked and the waiting turns that have no record: what the connection's
    /// in-flight limit counts.
    package var pendingCount: Int { records.count + turns.count { $0.token == nil } }

    /// Whether nothing is tracked and nothing waits (the connection may finish).
    package var isIdle: Bool { records.isEmpty && turns.isEmpty }

    /// Whether an ordered call that arrives now waits its turn.
    package var orderedCallWaits: Bool { orderedRunning != nil || !turns.isEmpty }

    /// Tracks the record `make` builds for a new token (its task and timers name the token),
    /// found by `id` (a request id's raw JSON; nil for a notification); `ordered`: it is the
    /// ordered call running now.
    package mutating func add(id: [UInt8]?, ordered: Bool = false, _ make: (UInt64) -> Record) -> UInt64 {
        nextToken += 1
        let token = nextToken
        records[token] = make(token)
        if let id {
            let key = CallIDKey.canonical(id)
            tokensByID[key] = token
            idKeys[token] = key
        }
        if ordered { orderedRunning = token }
        return token
    }

    /// The record of the call `token`, while it is tracked.
    package subscript(token: UInt64) -> Record? {
        get { records[token] }
        set {
            guard records[token] != nil, let newValue else { return }
            records[token] = newValue
        }
    }

    /// The token of the tracked call whose request id has the canonical form `idKey`.
    package func token(idKey: [UInt8]) -> UInt64? { tokensByID[idKey] }

    /// The tracked records whose `include` holds, by token.
    package func tokens(where include: (Record) -> Bool) -> [UInt64] {
        records.filter { include($0.value) }.keys.sorted()
    }

    /// The call `token` runs as the connection's ordered call from now on.
    package mutating func runsOrdered(_ token: UInt64) { orderedRunning = token }

    /// Stops tracking the call `token` (answered, cancelled): its record, and whether it was the
    /// ordered call running (the next turn may start: ``nextTurn()``). Nil when it is not tracked.
    package mutating func remove(_ token: UInt64) -> (record: Record, releasedOrder: Bool)? {
        guard let record = records.removeValue(forKey: token) else { return nil }
        if let key = idKeys.removeValue(forKey: token) { tokensByID.removeValue(forKey: key) }
        turns.removeAll { $0.token == token }
        let released = orderedRunning == token
        if released { orderedRunning = nil }
        return (record, released)
    }

    /// An ordered call waits its turn behind the one running (or those waiting); `token`: its
    /// record, when it has one.
    package mutating func waitTurn(token: UInt64?, _ start: @escaping () -> Void) {
        turns.append(Turn(token: token, start: start))
    }

    /// The next waiting ordered call to start, taken out of the queue, when no ordered call runs.
    package mutating func nextTurn() -> (() -> Void)? {
        guard orderedRunning == nil, !turns.isEmpty else { return nil }
        return turns.removeFirst().start
    }

    /// Forgets every call and turn (the connection closed), stopping each call.
    package mutating func stopAll() {
        for record in records.values { record.stop() }
        records.removeAll()
        tokensByID.removeAll()
        idKeys.removeAll()
        turns.removeAll()
        orderedRunning = nil
    }
}

/// The key under which a request id is found by a cancellation.
package enum CallIDKey {
    /// `raw`'s canonical JSON form, as ``JSONValue`` writes it (its whitespace and a string's
    /// escapes do not change the key).
    package static func canonical(_ raw: [UInt8]) -> [UInt8] {
        guard let tape = try? JSONTape(copying: raw) else { return raw }
        var writer = JSONWriter(capacity: raw.count)
        tape.withRoot { JSONValue($0) }.encode(to: &writer)
        return writer.bytes
    }
}
