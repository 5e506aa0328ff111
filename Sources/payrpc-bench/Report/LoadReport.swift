import Foundation

/// The result of one load run, as printed by `--json` and read back by `payrpc-bench table`.
struct LoadReport: Codable {
    /// Always `load`.
    var kind = "load"
    /// The scenario's name (`--label`), which pairs a payrpc run with its ceiling run in the table.
    var label: String
    /// `payrpc` or `ceiling` (the echoing transport).
    var target: String
    /// `tcp`, `unix` or `stdio`.
    var transport: String
    /// What was sent: a built-in scenario's name, or `custom`.
    var request: String
    var connections: Int
    var depth: Int
    var batch: Int
    /// Length of the measured window.
    var seconds: Double
    /// Requests answered with a valid result (or the expected error) in the measured window (errors
    /// are counted apart).
    var answered: Int
    /// Valid answers over the whole run, warm-up and drain included (set-up excluded): how many calls
    /// the server handled, to compare with what it stored.
    var answeredOverall: Int?
    var requestsPerSecond: Double
    /// Latency percentiles in microseconds.
    var latencyMicroseconds: Latency
    /// The error code that counted as an answer (`wrong-pin`'s -33007), if any.
    var expectedErrorCode: Int64?
    var errors: LoadErrors
    var errorCount: Int
    /// The server's CPU time (user + system) per answered request in microseconds, when its pid is known.
    var serverCPUMicrosecondsPerRequest: Double?
    /// The load generator's own CPU time per answered request in microseconds (to show it is not the
    /// bottleneck).
    var clientCPUMicrosecondsPerRequest: Double?
    /// The server's peak resident set size (`VmHWM`) in bytes, when its pid is known.
    var serverPeakRSSBytes: UInt64?
    var serverPID: Int32?
    /// The core the load generator was pinned to.
    var clientCPU: Int?
    /// Whether SIGINT/SIGTERM cut the run short.
    var interrupted: Bool
    /// The first response line that counted as an error (at most 300 bytes).
    var firstErrorLine: String?

    /// Latency percentiles, microseconds.
    struct Latency: Codable {
        var p50: Double
        var p90: Double
        var p99: Double
        var p999: Double
        var max: Double
        var mean: Double
    }

    /// One line for a terminal.
    var humanLine: String {
        var text = "\(label) [\(target) \(transport) \(connections)x\(depth)"
        if batch > 1 { text += " batch \(batch)" }
        text += " \(request)]: \(Format.number(requestsPerSecond, digits: 0)) req/s"
        let l = latencyMicroseconds
        text += ", latency µs p50 \(Format.number(l.p50)) p90 \(Format.number(l.p90)) p99 \(Format.number(l.p99))"
        text += " p99.9 \(Format.number(l.p999)) max \(Format.number(l.max))"
        text += ", errors \(errorCount)"
        if let code = expectedErrorCode { text += " (error \(code) expected)" }
        if let cpu = serverCPUMicrosecondsPerRequest { text += ", server \(Format.number(cpu, digits: 2)) µs CPU/req" }
        if let cpu = clientCPUMicrosecondsPerRequest { text += ", client \(Format.number(cpu, digits: 2)) µs CPU/req" }
        if let rss = serverPeakRSSBytes { text += ", peak RSS \(Format.mebibytes(rss))" }
        text += " (\(answered) in \(Format.number(seconds, digits: 2)) s)"
        if interrupted { text += " INTERRUPTED" }
        return text
    }
}
