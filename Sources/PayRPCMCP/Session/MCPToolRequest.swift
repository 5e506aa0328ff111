import PayRPCCore
import PayRPCJSON

/// A `tools/call` as the session keeps it until it is answered: where the answer goes and how it
/// is shaped.
struct MCPToolRequest {
    /// The request's id, as sent.
    let id: [UInt8]
    /// The era it is answered in.
    let era: MCPEra
    /// Whether the result is wrapped as `{"result": …}`.
    let wrapsResult: Bool
    /// The JSON-RPC method (or tool) called, for logs and errors.
    let method: String
    /// `_meta.progressToken`, as sent, when the caller wants progress.
    let progressToken: [UInt8]?
}

/// How a tool call ended: the method's result, or its error object (both as JSON), which become
/// `structuredContent` with `isError` false or true.
enum MCPToolOutcome: Sendable {
    case result(ArraySlice<UInt8>)
    case error(ArraySlice<UInt8>)

    private static let resultPrefix = Array(#""result":"#.utf8)
    private static let errorPrefix = Array(#""error":"#.utf8)

    /// A ``Call``'s outcome (`"result":…` or `"error":{…}`).
    init(_ outcome: Outcome) {
        if outcome.starts(with: Self.resultPrefix) {
            self = .result(outcome[Self.resultPrefix.count...])
        } else {
            self = .error(outcome[Self.errorPrefix.count...])
        }
    }

    /// An error.
    init(_ error: RPCError) {
        var writer = JSONWriter(capacity: 96)
        error.encode(to: &writer)
        self = .error(writer.bytes[...])
    }
}
