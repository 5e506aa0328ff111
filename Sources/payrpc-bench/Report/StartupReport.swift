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
