import ArgumentParser
import PayRPCProcess
#if canImport(Glibc)
import Glibc
#endif
import Histogram

/// `payrpc-bench run` (the default): keeps requests in flight on N connections and reports throughput,
/// latency, errors and the server's CPU time per request.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Load a server with JSON-RPC requests and measure it (the default subcommand).",
        discussion: """
            Every response is checked: its id must match a request in flight and it must carry a \
            `result` (an `error` counts as an error), or, when the scenario expects an error \
            (`wrong-pin`, or --expect-error), that error's code (then a `result` counts as an error). \
            The exit code is 1 when any error occurred. A scenario's set-up lines (`wrong-pin` \
            executes a payment; --setup) are sent on each connection before any traffic, one at a \
            time, and must each be answered with a `result`.
            Latency is measured per request from when it was queued for writing to when its response \
            line was read; for a batch it is that of the whole response line.
            """)

    @OptionGroup var target: TargetOptions
    @OptionGroup var spawn: SpawnOptions
    @OptionGroup var report: ReportOptions

    @Option(help: "Connections to open (1 with --spawn).")
    var connections = 1

    @Option(help: "Lines (requests, or batches) in flight per connection.")
    var depth = 1

    @Option(help: "Requests per line; above 1 each line is a JSON-RPC batch array.")
    var batch = 1

    @Option(help: ArgumentHelp("Seconds measured (unless --requests is given).", valueName: "seconds"))
    var duration: Double = 5

    @Option(help: "Measure this many responses instead of a duration.")
    var requests: Int?

    @Option(help: ArgumentHelp("Seconds of unmeasured traffic first.", valueName: "seconds"))
    var warmup: Double = 1

    @Option(help: "A built-in request: \(BuiltInScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenario: BuiltInScenario = .health

    @Option(
        help: ArgumentHelp("A JSON-RPC request line to send instead; its \"id\" is rewritten per request.", valueName: "json"))
    var request: String?

    @Option(help: ArgumentHelp("Send this method (with --params) instead of a built-in scenario.", valueName: "name"))
    var method: String?

    @Option(help: ArgumentHelp("The params (a JSON object or array) for --method.", valueName: "json"))
    var params: String?

    @Option(
        help: ArgumentHelp(
            "A request line each connection sends (and sees answered with a result) before the load; repeatable, sent in order.",
            valueName: "json"))
    var setup: [String] = []

    // Unconditional: error codes are negative, and `--expect-error -33007` must not read as an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("An error code that is the expected answer (counted as answered, not as an error).", valueName: "code")
    )
    var expectError: Int64?

    @Option(help: ArgumentHelp("Seconds to wait for outstanding responses after measuring.", valueName: "seconds"))
    var drainTimeout: Double = 5

    @Option(
        help: ArgumentHelp(
            "Longest measured window with --requests, and longest wait for the answers to the set-up lines.", valueName: "seconds"
        ))
    var timeout: Double = 120

    func validate() throws {
        guard (1...10_000).contains(connections) else { throw ValidationError("--connections must be 1...10000.") }
        guard (1...100_000).contains(depth) else { throw ValidationError("--depth must be 1...100000.") }
        guard (1...100_000).contains(batch) else { throw ValidationError("--batch must be 1...100000.") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be in (0, 3600] seconds.") }
        guard warmup >= 0, warmup <= 600 else { throw ValidationError("--warmup must be 0...600 seconds.") }
        guard drainTimeout >= 0, drainTimeout <= 600 else { throw ValidationError("--drain-timeout must be 0...600 s.") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be in (0, 3600] seconds.") }
        if let requests, requests < 1 { throw ValidationError("--requests must be at least 1.") }
        guard (target.tcp != nil ? 1 : 0) + (target.unix != nil ? 1 : 0) + (spawn.spawn ? 1 : 0) == 1 else {
            throw ValidationError("Choose exactly one of --tcp, --unix and --spawn.")
        }
        if spawn.spawn && connections != 1 { throw ValidationError("--spawn has one connection (its stdin/stdout).") }
        if request != nil && method != nil { throw ValidationError("Give --request or --method, not both.") }
        if params != nil && method == nil { throw ValidationError("--params needs --method.") }
        let chosen = makeScenario()
        if let limit = chosen.depthLimit, depth * batch > limit.depth {
            throw ValidationError(
                "--depth \(depth)\(batch > 1 ? " with --batch \(batch)" : ""): at most \(limit.depth) "
                    + "request(s) in flight per connection for \(requestName): \(limit.reason).")
        }
        _ = try makeTemplates(chosen)
    }

    /// The built-in scenario, or the request given with --request or --method; then --setup and
    /// --expect-error on top.
    private func makeScenario() -> LoadScenario {
        var chosen = scenario.scenario
        if let request { chosen = LoadScenario(requestLine: request) }
        if let method {
            var line = #"{"jsonrpc":"2.0","id":0,"method":"# + JSONText.quoted(method)
            if let params { line += #","params":"# + params }
            chosen = LoadScenario(requestLine: line + "}")
        }
        chosen.setupLines += setup
        if let expectError { chosen.expectedErrorCode = expectError }
        return chosen
    }

    /// The request's template and the set-up lines' templates.
    private func makeTemplates(_ chosen: LoadScenario) throws -> (request: RequestTemplate, setup: [RequestTemplate]) {
        do {
            return (
                try RequestTemplate(requestLine: chosen.requestLine, batchSize: batch),
                try chosen.setupLines.map { line throws(BenchError) in try RequestTemplate(requestLine: line) }
            )
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `tcp`, `unix` or `stdio`.
    private var transportName: String { target.tcp != nil ? "tcp" : (target.unix != nil ? "unix" : "stdio") }

    private var requestName: String {
        if request != nil { return "custom" }
        if let method { return method }
        return scenario.rawValue
    }

    func run() throws {
        Interrupt.install()
        try report.applyPinning()
        FileLimits.raise(toAtLeast: connections + 64)
        let chosen = makeScenario()
        let (template, setupTemplates) = try makeTemplates(chosen)
        var server: SpawnedProcess?
        defer { server?.stopServer() }

        var loadConnections: [LoadConnection] = []
        var serverPID = target.serverPID
        let capacity = depth * batch
        if let endpoint = try target.endpoint() {
            for _ in 0..<connections {
                let fd = try endpoint.connect(timeout: target.connectTimeout, serverPID: target.serverPID)
                loadConnections.append(LoadConnection(readFD: fd, writeFD: fd, ownsDescriptors: true, tableCapacity: capacity))
            }
        } else {
            let spawned = try SpawnedProcess.server(arguments: spawn.arguments(echo: target.echo))
            server = spawned
            if let core = spawn.serverCPU { try CPUAffinity.pin(spawned.processID, toCore: core) }
            serverPID = spawned.processID
            loadConnections.append(
                LoadConnection(
                    readFD: spawned.standardOutput, writeFD: spawned.standardInput, ownsDescriptors: false,
                    tableCapacity: capacity))
        }

        try ConnectionSetup.run(setupTemplates, on: loadConnections, echo: target.echo, timeout: timeout)
        let generator = LoadGenerator(
            configuration: .init(
                template: template, depth: depth, warmup: warmup, duration: duration, requests: requests,
                timeout: timeout, drainTimeout: drainTimeout, echo: target.echo,
                expectedErrorCode: chosen.expectedErrorCode, serverPID: serverPID),
            connections: loadConnections)
        let outcome = generator.run()
        loadConnections.removeAll()

        let h = outcome.latencyNanoseconds
        let micro = { (value: UInt64) in Double(value) / 1000 }
        let hasLatency = h.totalCount > 0
        var result = LoadReport(
            label: report.label ?? "\(requestName) \(transportName) \(connections)x\(depth)",
            target: target.targetName, transport: transportName, request: requestName,
            connections: connections, depth: depth, batch: batch, seconds: outcome.seconds,
            answered: outcome.answered, answeredOverall: outcome.answeredOverall,
            requestsPerSecond: outcome.seconds > 0 ? Double(outcome.answered) / outcome.seconds : 0,
            latencyMicroseconds: .init(
                p50: hasLatency ? micro(h.valueAtPercentile(50)) : 0,
                p90: hasLatency ? micro(h.valueAtPercentile(90)) : 0,
                p99: hasLatency ? micro(h.valueAtPercentile(99)) : 0,
                p999: hasLatency ? micro(h.valueAtPercentile(99.9)) : 0,
                max: hasLatency ? micro(h.max) : 0,
                mean: hasLatency ? h.mean / 1000 : 0),
            expectedErrorCode: chosen.expectedErrorCode, errors: outcome.errors, errorCount: outcome.errors.total,
            serverPeakRSSBytes: outcome.serverPeakRSS, serverPID: serverPID, clientCPU: report.clientCPU,
            interrupted: outcome.interrupted, firstErrorLine: outcome.firstErrorLine)
        if let cpu = outcome.serverCPUSeconds, outcome.answered > 0 {
            result.serverCPUMicrosecondsPerRequest = cpu * 1e6 / Double(outcome.answered)
        }
        if outcome.answered > 0 {
            result.clientCPUMicrosecondsPerRequest = outcome.clientCPUSeconds * 1e6 / Double(outcome.answered)
        }
        print(report.json ? Format.json(result) : result.humanLine)
        if outcome.interrupted { throw ExitCode(130) }
        if outcome.errors.total > 0 || outcome.answered == 0 {
            if !report.json {
                print("errors: \(Format.json(outcome.errors))")
                if let line = outcome.firstErrorLine { print("first error line: \(line)") }
            }
            throw ExitCode(1)
        }
    }
}
