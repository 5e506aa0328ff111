/// A connection handler that gathers a read's answers in a ``SessionOutput`` and hands them to
/// the connection in one write: both faces of a connection (``RPCSession`` for JSON-RPC,
/// ``MCPSession`` for MCP) are, and share how they flush, finish and pause reading.
package protocol GatheringSession: RPCConnectionHandler {
    /// The connection the answers go to.
    var connection: any RPCConnection { get }
    /// The answers gathered and not yet handed over.
    var output: SessionOutput { get set }
    /// What a tracked call of this face keeps.
    associatedtype Tracked: TrackedCall
    /// The calls not answered yet.
    var calls: CallBook<Tracked> { get }
    /// Where the session is in its life (changed by the session only).
    var life: SessionLife { get set }
    /// The engine, for the connection's limits.
    var engine: RPCEngine { get }
}

extension GatheringSession {
    /// Finishes the connection once its input has ended and every call is answered.
    package func finishIfDone() {
        if life.finishes(idle: calls.isIdle) {
            flush()
            connection.finish()
        }
    }

    /// Stops reading while too many calls of this connection run or wait their turn, and resumes
    /// after.
    package func updateReading() {
        if let pause = life.reading(pending: calls.pendingCount, limit: engine.configuration.maxInFlight) {
            connection.setReadingPaused(pause)
        }
    }

    /// Hands the gathered lines to the connection.
    package func flush() {
        output.flush(to: connection)
    }

    package func receivedAvailableLines() {
        flush()
    }

    package func receivedOversizedLine(limit: Int) {
        output.writeLineTooLong(limit: limit)
        flush()
    }
}
