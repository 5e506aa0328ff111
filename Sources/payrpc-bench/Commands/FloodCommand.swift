import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc-bench flood`: one client writes requests without ever reading; the server must stop reading
/// from it (backpressure) instead of buffering answers without bound.
struct FloodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flood",
        abstract: "Write many requests without reading any answer; report the server's peak RSS growth.",
        discussion: """
            Writes are non-blocking with a deadline (--timeout), so the command ends by itself even when \
            the server stops reading. While the flooding connection is still open, a second connection \
            sends one rpc.health (unless --no-check-other): a server that is not served it is an error \
            (exit code 1).
            """)

    @OptionGroup var target: TargetOptions
    @OptionGroup var report: ReportOptions

    @Option(help: "Requests to write.")
    var requests = 100_000

    @Option(help: "A built-in request: \(BuiltInScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenario: BuiltInScenario = .health

    @Option(help: ArgumentHelp("Longest time spent writing.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Seconds to keep sampling the server's RSS after writing ends.", valueName: "seconds"))
    var settle: Double = 1

    @Flag(inversion: .prefixedNo, help: "Check that another connection is still served during the flood.")
    var checkOther = true

    func validate() throws {
        guard target.tcp != nil || target.unix != nil else { throw ValidationError("flood needs --tcp or --unix.") }
        guard target.serverPID != nil else { throw ValidationError("flood needs --server-pid.") }
        guard (1...100_000_000).contains(requests) else { throw ValidationError("--requests must be 1...100000000.") }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600] seconds.") }
        guard settle >= 0, settle <= 60 else { throw ValidationError("--settle must be 0...60 seconds.") }
    }

    func run() throws {
        Interrupt.install()
        try report.applyPinning()
        let endpoint = try target.requiredEndpoint()
        guard let pid = target.serverPID else { return }
        let stats = ProcessStats(pid: pid)
        let template = try RequestTemplate(requestLine: scenario.scenario.requestLine)
        // Connected first, so the figures before are those of a server that is up and serving.
        let fd = try endpoint.connect(timeout: target.connectTimeout, serverPID: target.serverPID)
        defer { close(fd) }
        guard let rssBefore = stats.currentRSS() else { throw BenchError("no process \(pid)") }
        let hwmBefore = stats.peakRSS() ?? rssBefore
        var peak = rssBefore
        var nextSample: UInt64 = 0
        func sample(_ now: UInt64) {
            guard now >= nextSample else { return }
            nextSample = now + 50_000_000
            if let rss = stats.currentRSS() { peak = max(peak, rss) }
        }

        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        var sent = 0
        var generated = 0
        var requestsWritten = 0
        var bytesWritten = 0
        var lineEnds: [Int] = []  // offsets in `out` after each line, to count whole requests written
        var linesDone = 0
        let start = MonotonicClock.now()
        let deadline = start + MonotonicClock.nanoseconds(timeout)
        var stalled = false
        var nextID: UInt64 = 1
        while !Interrupt.requested {
            let now = MonotonicClock.now()
            sample(now)
            if sent == out.count {
                if generated == requests { break }
                out.removeAll(keepingCapacity: true)
                lineEnds.removeAll(keepingCapacity: true)
                linesDone = 0
                sent = 0
                for _ in 0..<min(4096, requests - generated) {
                    template.appendLine(to: &out) {
                        defer { nextID += 1 }
                        return nextID
                    }
                    lineEnds.append(out.count)
                }
                generated += lineEnds.count
            }
            if now >= deadline {
                stalled = true
                break
            }
            let n = out.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            if n > 0 {
                sent += n
                bytesWritten += n
                while linesDone < lineEnds.count && lineEnds[linesDone] <= sent {
                    linesDone += 1
                    requestsWritten += 1
                }
                continue
            }
            if n < 0 && errno != EAGAIN && errno != EINTR {
                stalled = true  // the server closed the connection
                break
            }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, Int32(min((deadline - now) / 1_000_000 + 1, 50)))
        }
        let secondsWriting = Double(MonotonicClock.now() - start) / 1e9

        // Keep sampling while the server works through what it took.
        let settleEnd = MonotonicClock.now() + MonotonicClock.nanoseconds(settle)
        while !Interrupt.requested {
            let now = MonotonicClock.now()
            if now >= settleEnd { break }
            sample(now)
            _ = poll(nil, 0, Int32(min((settleEnd - now) / 1_000_000 + 1, 50)))
        }

        var otherServed: Bool?
        if checkOther {
            if let other = try? endpoint.connect(timeout: 5) {
                let result = Probe.ask(
                    readFD: other, writeFD: other, id: 1, echo: target.echo,
                    deadline: MonotonicClock.now() + 5_000_000_000)
                close(other)
                otherServed = result == .answered
            } else {
                otherServed = false
            }
        }
        nextSample = 0
        sample(MonotonicClock.now())
        // VmHWM only tells something new when it rose during the flood (it may be older than it).
        let hwmAfter = stats.peakRSS() ?? 0
        let peakAfter = max(peak, hwmAfter > hwmBefore ? hwmAfter : 0)

        let result = FloodReport(
            label: report.label ?? "flood \(endpoint.transportName) \(requests)", target: target.targetName,
            transport: endpoint.transportName, requestsToWrite: requests, requestsWritten: requestsWritten,
            bytesWritten: bytesWritten, secondsWriting: secondsWriting, stalled: stalled,
            rssBeforeBytes: rssBefore, peakRSSBeforeBytes: hwmBefore, peakRSSAfterBytes: peakAfter,
            peakRSSGrowthBytes: Int64(peakAfter) - Int64(rssBefore), otherConnectionServed: otherServed,
            errorCount: otherServed == false ? 1 : 0)
        print(report.json ? Format.json(result) : result.humanLine)
        if result.errorCount > 0 { throw ExitCode(1) }
    }
}
