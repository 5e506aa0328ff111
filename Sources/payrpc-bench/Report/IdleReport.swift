/// The result of `payrpc-bench idle`: what idle connections cost the server in memory.
struct IdleReport: Codable {
    /// Always `idle`.
    var kind = "idle"
    var label: String
    var target: String
    var transport: String
    /// Connections asked for and actually opened.
    var requested: Int
    var opened: Int
    /// Connections the server closed while they were held.
    var closedByServer: Int
    var holdSeconds: Double
    /// The server's `VmRSS` before opening, after holding, and after one request on each connection.
    var rssBeforeBytes: UInt64
    var rssAfterHoldBytes: UInt64
    var rssAfterRequestBytes: UInt64?
    /// (after hold − before) / (opened − 1): `before` is read with the first connection open.
    var bytesPerConnection: Double
    /// (after one request each − before) / (opened − 1).
    var bytesPerConnectionAfterRequest: Double?
    var serverPeakRSSBytes: UInt64?
    /// Connections whose verification request got no valid answer.
    var failedRequests: Int
    var errorCount: Int

    /// One line for a terminal.
    var humanLine: String {
        var text = "\(label) [\(target) \(transport)]: \(opened)/\(requested) connections held \(Format.number(holdSeconds)) s"
        text += ", server RSS \(Format.mebibytes(rssBeforeBytes)) → \(Format.mebibytes(rssAfterHoldBytes))"
        text += " = \(Format.number(bytesPerConnection / 1024, digits: 2)) KiB/connection"
        if let after = bytesPerConnectionAfterRequest {
            text += " (\(Format.number(after / 1024, digits: 2)) KiB after one request each)"
        }
        text += ", closed by server \(closedByServer), failed requests \(failedRequests)"
        return text
    }
}
