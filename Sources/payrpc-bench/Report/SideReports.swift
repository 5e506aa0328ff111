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

/// The result of `payrpc-bench flood`: what a client that writes without reading does to the server.
struct FloodReport: Codable {
    /// Always `flood`.
    var kind = "flood"
    var label: String
    var target: String
    var transport: String
    var requestsToWrite: Int
    var requestsWritten: Int
    var bytesWritten: Int
    var secondsWriting: Double
    /// True when the server stopped taking bytes before everything was written (backpressure).
    var stalled: Bool
    var rssBeforeBytes: UInt64
    var peakRSSBeforeBytes: UInt64
    /// The highest `VmRSS` sampled (every 50 ms) during and after the flood, or the final `VmHWM` if it
    /// rose above its value before the flood.
    var peakRSSAfterBytes: UInt64
    /// peakRSSAfter − rssBefore.
    var peakRSSGrowthBytes: Int64
    /// Whether a second connection got an answer while the flooding one was still open.
    var otherConnectionServed: Bool?
    var errorCount: Int

    /// One line for a terminal.
    var humanLine: String {
        var text = "\(label) [\(target) \(transport)]: wrote \(requestsWritten)/\(requestsToWrite) requests"
        text += " (\(Format.mebibytes(UInt64(bytesWritten)))) in \(Format.number(secondsWriting, digits: 2)) s"
        text += stalled ? ", server stopped reading (backpressure)" : ", all written"
        text += ", server peak RSS growth \(Format.number(Double(peakRSSGrowthBytes) / 1_048_576)) MiB"
        text += " (\(Format.mebibytes(rssBeforeBytes)) → \(Format.mebibytes(peakRSSAfterBytes)))"
        if let served = otherConnectionServed { text += served ? ", other connection served" : ", OTHER CONNECTION NOT SERVED" }
        return text
    }
}

/// The result of `payrpc-bench startup`: time from spawning the server to its first answer.
struct StartupReport: Codable {
    /// Always `startup`.
    var kind = "startup"
    var label: String
    var target: String
    var runs: Int
    var failures: Int
    var medianMilliseconds: Double
    var p90Milliseconds: Double
    var minMilliseconds: Double
    var maxMilliseconds: Double
    var errorCount: Int

    /// One line for a terminal.
    var humanLine: String {
        "\(label) [\(target)]: \(runs) runs, first answer after median \(Format.number(medianMilliseconds, digits: 2)) ms"
            + ", p90 \(Format.number(p90Milliseconds, digits: 2)) ms (min \(Format.number(minMilliseconds, digits: 2))"
            + ", max \(Format.number(maxMilliseconds, digits: 2))), failures \(failures)"
    }
}
