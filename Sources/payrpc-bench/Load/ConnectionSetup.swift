#if canImport(Glibc)
import Glibc
#endif

/// Sends a scenario's set-up lines on every connection before the load starts (a payment to authorize,
/// say): on each connection one line at a time, each written only after the previous one's answer;
/// the connections proceed side by side. Every answer must carry a `result` (with `echo`, only the id
/// is checked); anything else stops the run, since measuring on a connection whose set-up failed
/// would measure the failure.
enum ConnectionSetup {
    /// Runs `lines` on `connections`; throws the first wrong answer, a closed connection, or missing
    /// answers after `timeout` seconds.
    static func run(
        _ lines: [RequestTemplate], on connections: [LoadConnection], echo: Bool, timeout: Double
    ) throws(BenchError) {
        guard !lines.isEmpty else { return }
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(timeout)
        /// Per connection: the next line to send, and the id of the one awaiting its answer.
        var next = [Int](repeating: 0, count: connections.count)
        var awaiting = [UInt64?](repeating: nil, count: connections.count)
        var failure: BenchError?
        var scanned: [ScannedResponse] = []
        let separateWriters = connections.contains { $0.readFD != $0.writeFD }

        while failure == nil {
            var pollSet: [pollfd] = []
            var owners: [Int] = []
            for (index, connection) in connections.enumerated() {
                if awaiting[index] == nil, next[index] < lines.count {
                    var issued: UInt64?
                    lines[next[index]].appendLine(to: &connection.out) {
                        issued = connection.table.issue(at: 0)
                        return issued ?? 0
                    }
                    awaiting[index] = issued
                }
                guard awaiting[index] != nil else { continue }
                guard connection.flush() else {
                    throw BenchError("connection \(index + 1) closed during the set-up (line \(next[index] + 1))")
                }
                let wantsWrite = connection.hasPendingOutput ? Int16(POLLOUT) : 0
                if separateWriters {
                    pollSet.append(pollfd(fd: connection.readFD, events: Int16(POLLIN), revents: 0))
                    owners.append(index)
                    if wantsWrite != 0 {
                        pollSet.append(pollfd(fd: connection.writeFD, events: wantsWrite, revents: 0))
                        owners.append(index)
                    }
                } else {
                    pollSet.append(pollfd(fd: connection.readFD, events: Int16(POLLIN) | wantsWrite, revents: 0))
                    owners.append(index)
                }
            }
            if pollSet.isEmpty { return }
            let now = MonotonicClock.now()
            guard now < deadline else {
                let waiting = awaiting.filter { $0 != nil }.count
                throw BenchError("\(waiting) connection(s) had no answer to their set-up after \(timeout) s")
            }
            let ready = poll(&pollSet, nfds_t(pollSet.count), Int32(min((deadline - now) / 1_000_000 + 1, 100)))
            guard ready > 0 else { continue }
            for (slot, entry) in pollSet.enumerated() where entry.revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0
            {
                let index = owners[slot]
                let connection = connections[index]
                guard entry.fd == connection.readFD else { continue }
                let open = connection.readLines { line in
                    guard failure == nil else { return }
                    scanned.removeAll(keepingCapacity: true)
                    let valid = ResponseScanner.scan(line, into: &scanned) && scanned.count == 1
                    if valid, !scanned[0].hasID, scanned[0].hasMethod { return }  // a notification
                    guard valid, let id = scanned[0].id, id == awaiting[index], connection.table.complete(id) != nil,
                        echo || scanned[0].hasResult
                    else {
                        let text = String(decoding: line.prefix(300), as: UTF8.self)
                        failure = BenchError(
                            "set-up line \(next[index] + 1) on connection \(index + 1) was answered with: \(text)")
                        return
                    }
                    awaiting[index] = nil
                    next[index] += 1
                }
                if !open, failure == nil {
                    failure = BenchError("connection \(index + 1) closed during the set-up (line \(next[index] + 1))")
                }
            }
        }
        if let failure { throw failure }
    }
}
