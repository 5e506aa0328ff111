import ArgumentParser
import PayRPCProcess
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc-bench startup`: how long `payrpc serve --stdio` takes from spawn to its first answer.
struct StartupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Time from spawning `payrpc serve --stdio` to its first rpc.health answer.",
        discussion: """
            Each run spawns the server, writes one rpc.health at once, and stops the clock when the \
            answer is read; then closes the server's stdin and reaps it. Warm-up runs (--warmup-runs) \
            are not counted; they also create the data directory if the arguments name one. Example: \
            payrpc-bench startup --binary .build/release/payrpc --runs 20 -- --data DIR
            """)

    @Option(help: ArgumentHelp("The payrpc binary.", valueName: "path"))
    var binary = ".build/release/payrpc"

    @Option(help: "Measured runs.")
    var runs = 20

    @Option(help: "Runs before measuring.")
    var warmupRuns = 1

    @Option(help: ArgumentHelp("Longest wait for one answer.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "Time the ceiling (`payrpc-bench ceiling --stdio`) instead of payrpc.")
    var echo = false

    @OptionGroup var report: ReportOptions

    @Argument(
        parsing: .postTerminator, help: ArgumentHelp("Extra arguments for the server (after `--`).", valueName: "server-args"))
    var serverArguments: [String] = []

    func validate() throws {
        guard (1...10_000).contains(runs) else { throw ValidationError("--runs must be 1...10000.") }
        guard (0...100).contains(warmupRuns) else { throw ValidationError("--warmup-runs must be 0...100.") }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600] seconds.") }
    }

    func run() throws {
        Interrupt.install()
        try report.applyPinning()
        let arguments =
            echo
            ? [SelfExecutable.path, "ceiling", "--stdio"] + serverArguments
            : [binary, "serve", "--stdio"] + serverArguments
        var times: [Double] = []
        var failures = 0
        for run in 0..<(warmupRuns + runs) where !Interrupt.requested {
            let start = MonotonicClock.now()
            let server = try SpawnedProcess.server(arguments: arguments)
            let result = Probe.ask(
                readFD: server.standardOutput, writeFD: server.standardInput, id: 1, echo: echo,
                deadline: start + MonotonicClock.nanoseconds(timeout))
            let elapsed = Double(MonotonicClock.now() - start) / 1e6
            server.stopServer()
            if run < warmupRuns { continue }
            if result == .answered { times.append(elapsed) } else { failures += 1 }
        }
        times.sort()
        let pick = { (fraction: Double) -> Double in
            times.isEmpty ? 0 : times[min(times.count - 1, Int((Double(times.count - 1) * fraction).rounded()))]
        }
        let result = StartupReport(
            label: report.label ?? "startup", target: echo ? "ceiling" : "payrpc", runs: times.count + failures,
            failures: failures, medianMilliseconds: pick(0.5), p90Milliseconds: pick(0.9),
            minMilliseconds: times.first ?? 0, maxMilliseconds: times.last ?? 0, errorCount: failures)
        print(report.json ? Format.json(result) : result.humanLine)
        if failures > 0 || times.isEmpty { throw ExitCode(1) }
    }
}
