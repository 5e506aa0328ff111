/// A connection handler that gathers a read's answers in a ``SessionOutput`` and hands them to
/// the connection in one write: both faces of a connection (``RPCSession`` for JSON-RPC,
/// ``MCPSession`` for MCP) are, and share how they flush.
package protocol GatheringSession: RPCConnectionHandler {
    /// The connection the answers go to.
    var connection: any RPCConnection { get }
    /// The answers gathered and not yet handed over.
    var output: SessionOutput { get set }
}

extension GatheringSession {
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
