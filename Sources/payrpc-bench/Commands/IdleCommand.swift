import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc-bench idle`: opens many idle connections, holds them, and reports the server's memory per
/// connection.
struct IdleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "Open many idle connections and measure the server's RSS per connection.",
        discussion: """
            Reads the server's VmRSS (--server-pid) before opening the connections and after holding \
            them, then (unless --no-verify) sends one rpc.health on each and reads VmRSS again. \
            A connection the server closes, or a request without a valid answer, is an error (exit code 1).
            """)

    @OptionGroup var target: TargetOptions
    @OptionGroup var report: ReportOptions

    @Option(help: "Connections to open.")
    var connections = 1000

    @Option(help: ArgumentHelp("Seconds to hold them open before measuring.", valueName: "seconds"))
    var hold: Double = 2

    @Flag(inversion: .prefixedNo, help: "Send one rpc.health on every connection after the hold.")
    var verify = true

    func validate() throws {
        guard target.tcp != nil || target.unix != nil else { throw ValidationError("idle needs --tcp or --unix.") }
        guard target.serverPID != nil else { throw ValidationError("idle needs --server-pid.") }
        guard (1...100_000).contains(connections) else { throw ValidationError("--connections must be 1...100000.") }
        guard hold >= 0, hold <= 600 else { throw ValidationError("--hold must be 0...600 seconds.") }
    }

    func run() throws {
        Interrupt.install()
        try report.applyPinning()
        let limit = FileLimits.raise(toAtLeast: connections + 64)
        guard limit >= connections + 16 else {
            throw ValidationError("the open-file limit (\(limit)) is too low for \(connections) connections")
        }
        let endpoint = try target.requiredEndpoint()
        guard let pid = target.serverPID else { return }
        let stats = ProcessStats(pid: pid)
        var fds: [Int32] = []
        defer { for fd in fds where fd >= 0 { close(fd) } }
        // The first connection waits for the server to be up; RSS before counts it (one connection).
        fds.append(try endpoint.connect(timeout: target.connectTimeout, serverPID: target.serverPID))
        guard let before = stats.currentRSS() else { throw BenchError("no process \(pid)") }
        // Opening is bounded as a whole too: the rest share 30 s.
        let openDeadline = MonotonicClock.now() + 30_000_000_000
        for _ in 1..<connections where !Interrupt.requested {
            let now = MonotonicClock.now()
            let remaining = now < openDeadline ? Double(openDeadline - now) / 1e9 : 0
            do {
                let timeout = min(target.connectTimeout, remaining)
                fds.append(try endpoint.connect(timeout: timeout, serverPID: target.serverPID))
            } catch {
                StandardError.write("payrpc-bench idle: stopped after \(fds.count) connections: \(error)\n")
                break
            }
        }

        // Hold: wait out the time, noticing connections the server closes.
        var closed = 0
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let holdEnd = MonotonicClock.now() + MonotonicClock.nanoseconds(hold)
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !Interrupt.requested {
            let now = MonotonicClock.now()
            if now >= holdEnd { break }
            let ready = poll(&entries, nfds_t(entries.count), Int32(min((holdEnd - now) / 1_000_000 + 1, 100)))
            guard ready > 0 else { continue }
            for index in entries.indices where entries[index].revents != 0 {
                entries[index].revents = 0
                let n = scratch.withUnsafeMutableBytes { read(entries[index].fd, $0.baseAddress, $0.count) }
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
                    closed += 1
                    close(entries[index].fd)
                    fds[index] = -1
                    entries[index].fd = -1
                }
            }
        }
        let afterHold = stats.currentRSS() ?? 0

        var failed = 0
        var afterRequest: UInt64?
        if verify {
            let deadline = MonotonicClock.now() + 10_000_000_000
            for (index, fd) in fds.enumerated() where fd >= 0 {
                let result = Probe.ask(readFD: fd, writeFD: fd, id: UInt64(index + 1), echo: target.echo, deadline: deadline)
                if result != .answered { failed += 1 }
            }
            afterRequest = stats.currentRSS()
        }

        let opened = fds.count
        // `before` already had the first connection open.
        let perConnection = { (after: UInt64) in (Double(after) - Double(before)) / Double(max(opened - 1, 1)) }
        let result = IdleReport(
            label: report.label ?? "idle \(endpoint.transportName) \(connections)", target: target.targetName,
            transport: endpoint.transportName, requested: connections, opened: opened, closedByServer: closed,
            holdSeconds: hold, rssBeforeBytes: before, rssAfterHoldBytes: afterHold,
            rssAfterRequestBytes: afterRequest, bytesPerConnection: perConnection(afterHold),
            bytesPerConnectionAfterRequest: afterRequest.map(perConnection), serverPeakRSSBytes: stats.peakRSS(),
            failedRequests: failed, errorCount: closed + failed + (connections - opened))
        print(report.json ? Format.json(result) : result.humanLine)
        if result.errorCount > 0 { throw ExitCode(1) }
    }
}
