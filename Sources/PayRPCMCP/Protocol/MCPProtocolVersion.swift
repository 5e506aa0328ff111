import PayRPCCore
/// The revisions of the Model Context Protocol payrpc speaks, and the reserved `_meta` keys of
/// the stateless revision.
enum MCPProtocolVersion {
    /// Revisions reached through the `initialize` handshake, oldest first.
    static let handshake = ["2025-06-18", "2025-11-25"]
    /// Revisions whose requests carry their own version in `_meta` (no handshake).
    static let stateless = ["2026-07-28"]
    /// Every revision, oldest first (what `server/discover` lists).
    static let all = handshake + stateless

    /// The version a handshake settles on: the client's when payrpc speaks it, else the latest
    /// handshake revision (the client then decides whether it can go on).
    static func negotiated(requested: String?) -> String {
        if let requested, handshake.contains(requested) { return requested }
        return handshake.last!
    }

    /// `_meta` key of a stateless request: its protocol version.
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    /// `_meta` key of a stateless request: the client's capabilities.
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    /// `_meta` key of a stateless request: the log level it opts in to.
    static let logLevelKey = "io.modelcontextprotocol/logLevel"
    /// `_meta` key of a stateless result: the server's name and version.
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
}
