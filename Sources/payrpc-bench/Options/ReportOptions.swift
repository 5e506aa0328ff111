import ArgumentParser

/// How a run is named and printed, and where the load generator runs.
struct ReportOptions: ParsableArguments {
    @Option(help: "The scenario's name in the report (pairs a payrpc run with its ceiling run in `table`).")
    var label: String?

    @Flag(help: "Print the report as JSON instead of one human line.")
    var json = false

    @Option(
        name: .customLong("client-cpu"),
        help: ArgumentHelp("Pin the load generator to this CPU core (sched_setaffinity).", valueName: "core"))
    var clientCPU: Int?

    /// Pins the process if asked (call before any thread starts).
    func applyPinning() throws {
        guard let clientCPU else { return }
        do { try CPUAffinity.pin(toCore: clientCPU) } catch { throw ValidationError(error.description) }
    }
}
