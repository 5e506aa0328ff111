#if canImport(Glibc)
import Glibc
#endif
import Histogram

/// The load generator: keeps `depth` lines in flight on each connection from one thread with `poll`,
/// checks every response, and measures latency, throughput and the server's CPU time per request over
/// the measured window (after a warm-up that is not measured).
final class LoadGenerator {
    /// How one run is shaped.
    struct Configuration {
        var template: RequestTemplate
        /// Lines in flight per connection.
        var depth: Int
        /// Seconds of traffic before measuring starts.
        var warmup: Double
        /// Seconds measured; used when ``requests`` is nil.
        var duration: Double
        /// Responses to measure, instead of a duration.
        var requests: Int?
        /// Longest run in `requests` mode (seconds of measuring), so a stuck server cannot hang the bench.
        var timeout: Double
        /// Seconds to wait for outstanding responses after measuring.
        var drainTimeout: Double
        /// The target echoes requests (the ceiling): check ids only.
        var echo: Bool
        /// An error code that is the expected answer (counted as answered); nil: only a `result` is.
        var expectedErrorCode: Int64?
        /// The server process, for CPU time and memory.
        var serverPID: pid_t?
    }

    /// What one run measured.
    struct Outcome {
        var seconds: Double
        var answered: Int
        /// Valid answers in every phase (warm-up, measuring, draining): every call the server handled.
        var answeredOverall: Int
        var latencyNanoseconds: Histogram<UInt64>
        var errors: LoadErrors
        var serverCPUSeconds: Double?
        var clientCPUSeconds: Double
        var serverPeakRSS: UInt64?
        var interrupted: Bool
        /// The first line that counted as an error (at most 300 bytes), to see what went wrong.
        var firstErrorLine: String?
    }

    private let configuration: Configuration
    private let connections: [LoadConnection]
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000_000, numberOfSignificantValueDigits: .three)
    private var errors = LoadErrors()
    private var scanned: [ScannedResponse] = []
    private var firstErrorLine: String?

    private enum Phase { case warmup, measuring, draining }
    private var phase = Phase.warmup
    private var answered = 0
    private var answeredOverall = 0
    private var issuedWhileMeasuring = 0
    private var now: UInt64 = 0

    init(configuration: Configuration, connections: [LoadConnection]) {
        self.configuration = configuration
        self.connections = connections
        scanned.reserveCapacity(max(16, configuration.template.batchSize))
    }

    /// Runs the load until the duration or request count is reached (or SIGINT), then drains.
    func run() -> Outcome {
        let stats = configuration.serverPID.map { ProcessStats(pid: $0) }
        now = MonotonicClock.now()
        let warmupEnd = now + MonotonicClock.nanoseconds(configuration.warmup)
        var measureStart: UInt64 = 0
        var measureEnd: UInt64 = .max
        var drainDeadline: UInt64 = .max
        var cpuAtStart: Double?
        var cpuAtEnd: Double?
        var clientCPUAtStart = 0.0
        var clientCPUAtEnd = 0.0
        var interrupted = false

        var pollSet = connections.map { pollfd(fd: $0.readFD, events: Int16(POLLIN), revents: 0) }
        // For pipes the write end is another descriptor: poll it separately.
        let separateWriters = connections.contains { $0.readFD != $0.writeFD }
        if separateWriters {
            pollSet += connections.map { pollfd(fd: $0.writeFD, events: 0, revents: 0) }
        }

        func startMeasuring() {
            phase = .measuring
            histogram.reset()
            answered = 0
            measureStart = MonotonicClock.now()
            cpuAtStart = stats?.cpuSeconds()
            clientCPUAtStart = LoadGenerator.ownCPUSeconds()
            if configuration.requests == nil {
                measureEnd = measureStart + MonotonicClock.nanoseconds(configuration.duration)
            } else {
                measureEnd = measureStart + MonotonicClock.nanoseconds(configuration.timeout)
            }
        }
        func stopMeasuring() {
            cpuAtEnd = stats?.cpuSeconds()
            clientCPUAtEnd = LoadGenerator.ownCPUSeconds()
            measureEnd = MonotonicClock.now()
            phase = .draining
            drainDeadline = measureEnd + MonotonicClock.nanoseconds(configuration.drainTimeout)
        }

        if configuration.warmup <= 0 { startMeasuring() }
        while true {
            if Interrupt.requested && phase != .draining {
                interrupted = true
                if phase == .warmup { startMeasuring() }
                stopMeasuring()
            }
            switch phase {
            case .warmup where now >= warmupEnd:
                startMeasuring()
            case .measuring where now >= measureEnd:
                stopMeasuring()
            case .measuring where configuration.requests.map({ answered >= $0 }) ?? false:
                stopMeasuring()
            case .measuring
            where configuration.requests.map({ issuedWhileMeasuring >= $0 }) ?? false
                && !connections.contains(where: { $0.isOpen && $0.linesInFlight > 0 }):
                // Every request was sent and has its response, but some were errors: waiting for
                // more answers would only wait for the timeout.
                stopMeasuring()
            default:
                break
            }
            if phase == .draining {
                let outstanding = connections.reduce(0) { $0 + ($1.isOpen ? $1.linesInFlight : 0) }
                if outstanding == 0 || now >= drainDeadline { break }
            } else {
                fill()
            }
            var anyOpen = false
            for (index, connection) in connections.enumerated() where connection.isOpen {
                anyOpen = true
                if connection.hasPendingOutput && !connection.flush() { errors.closedConnections += 1 }
                let wantsWrite = connection.hasPendingOutput ? Int16(POLLOUT) : 0
                if separateWriters {
                    pollSet[index].events = Int16(POLLIN)
                    pollSet[connections.count + index].events = wantsWrite
                } else {
                    pollSet[index].events = Int16(POLLIN) | wantsWrite
                }
            }
            if !anyOpen {
                if phase != .draining { stopMeasuring() }
                break
            }
            for index in pollSet.indices where pollSet[index].fd >= 0 {
                let owner = connections[index % connections.count]
                if !owner.isOpen { pollSet[index].fd = -1 }
            }
            let next = phase == .warmup ? warmupEnd : (phase == .measuring ? measureEnd : drainDeadline)
            let waitMilliseconds = next > now ? min((next - now) / 1_000_000 + 1, 100) : 0
            let ready = poll(&pollSet, nfds_t(pollSet.count), Int32(waitMilliseconds))
            now = MonotonicClock.now()
            guard ready > 0 else { continue }
            for index in pollSet.indices where pollSet[index].revents != 0 {
                let revents = pollSet[index].revents
                pollSet[index].revents = 0
                let connection = connections[index % connections.count]
                guard connection.isOpen else { continue }
                if index >= connections.count {
                    if !connection.flush() { errors.closedConnections += 1 }
                    continue
                }
                if revents & Int16(POLLOUT) != 0, !connection.flush() {
                    errors.closedConnections += 1
                    continue
                }
                if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                    let stillOpen = connection.readLines { line in received(line, on: connection) }
                    if !stillOpen { errors.closedConnections += 1 }
                }
            }
        }
        if cpuAtEnd == nil, phase != .draining { stopMeasuring() }
        for connection in connections {
            errors.unanswered += connection.table.count
        }
        let seconds = Double(measureEnd &- measureStart) / 1e9
        var cpu: Double?
        if let start = cpuAtStart, let end = cpuAtEnd { cpu = end - start }
        return Outcome(
            seconds: seconds, answered: answered, answeredOverall: answeredOverall, latencyNanoseconds: histogram, errors: errors,
            serverCPUSeconds: cpu, clientCPUSeconds: clientCPUAtEnd - clientCPUAtStart, serverPeakRSS: stats?.peakRSS(),
            interrupted: interrupted,
            firstErrorLine: firstErrorLine)
    }

    /// User + system CPU time of the load generator itself (`getrusage`, microsecond resolution).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// Tops every open connection up to `depth` lines in flight.
    @inline(__always)
    private func fill() {
        let limit = configuration.requests
        for connection in connections where connection.isOpen {
            while connection.linesInFlight < configuration.depth {
                if phase == .measuring, let limit, issuedWhileMeasuring >= limit { return }
                var tableFull = false
                let time = now
                configuration.template.appendLine(to: &connection.out) {
                    if let id = connection.table.issue(at: time) { return id }
                    tableFull = true
                    return 0
                }
                if tableFull { break }
                connection.linesInFlight += 1
                if phase == .measuring { issuedWhileMeasuring += configuration.template.batchSize }
            }
        }
    }

    /// Checks one response line.
    @inline(__always)
    private func received(_ line: UnsafeRawBufferPointer, on connection: LoadConnection) {
        let errorsBefore = errors.total
        defer {
            if firstErrorLine == nil, errors.total != errorsBefore {
                firstErrorLine = String(decoding: UnsafeRawBufferPointer(rebasing: line.prefix(300)), as: UTF8.self)
            }
        }
        scanned.removeAll(keepingCapacity: true)
        guard ResponseScanner.scan(line, into: &scanned) else {
            errors.malformedLines += 1
            if connection.linesInFlight > 0 { connection.linesInFlight -= 1 }
            return
        }
        var answersALine = false
        let measuring = phase == .measuring
        for response in scanned {
            if !response.hasID {
                if response.hasMethod { continue }  // a notification from the server
                errors.malformedLines += 1
                answersALine = true
                continue
            }
            answersALine = true
            guard let id = response.id, let sentAt = connection.table.complete(id) else {
                if response.hasError { errors.errorResponses += 1 } else { errors.unmatchedIDs += 1 }
                continue
            }
            if !configuration.echo {
                if response.hasError {
                    guard let expected = configuration.expectedErrorCode, response.errorCode == expected else {
                        errors.errorResponses += 1
                        continue
                    }
                } else if !response.hasResult {
                    errors.missingResults += 1
                    continue
                } else if configuration.expectedErrorCode != nil {
                    errors.unexpectedResults += 1
                    continue
                }
            }
            answeredOverall += 1
            if measuring {
                answered += 1
                _ = histogram.record(now > sentAt ? now - sentAt : 1)
            }
        }
        if answersALine, connection.linesInFlight > 0 { connection.linesInFlight -= 1 }
    }
}
