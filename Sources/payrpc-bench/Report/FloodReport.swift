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
