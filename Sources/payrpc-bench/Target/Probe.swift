#if canImport(Glibc)
import Glibc
#endif

/// One `rpc.health` request and its answer on a fresh connection, bounded by a deadline: how `idle`
/// checks that held connections still work, `flood` that other clients are still served, and
/// `startup` when the server first answers.
enum Probe {
    /// How a probe ended.
    enum Result: Equatable {
        case answered
        case badAnswer
        case closed
        case timedOut
    }

    /// Writes one `rpc.health` request with `id` and waits until `deadline` (monotonic ns) for the
    /// response with that id. With `echo`, the echoed request counts as the answer.
    static func ask(readFD: Int32, writeFD: Int32, id: UInt64, echo: Bool, deadline: UInt64) -> Result {
        var line = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        RequestTemplate.appendDecimal(id, to: &line)
        line += Array(#","method":"rpc.health"}"#.utf8)
        line.append(UInt8(ascii: "\n"))
        var sent = 0
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var scanned: [ScannedResponse] = []
        while !Interrupt.requested {
            let now = MonotonicClock.now()
            if now >= deadline { return .timedOut }
            var entries = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
            if sent < line.count {
                if writeFD == readFD {
                    entries[0].events |= Int16(POLLOUT)
                } else {
                    entries.append(pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0))
                }
            }
            let wait = Int32(min((deadline - now) / 1_000_000 + 1, 100))
            guard poll(&entries, nfds_t(entries.count), wait) > 0 else { continue }
            let writable = entries.contains { $0.fd == writeFD && $0.revents & Int16(POLLOUT) != 0 }
            if sent < line.count && writable {
                let n = line.withUnsafeBytes { write(writeFD, $0.baseAddress! + sent, $0.count - sent) }
                if n > 0 { sent += n } else if n < 0 && errno != EAGAIN && errno != EINTR { return .closed }
            }
            guard entries[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n == 0 { return .closed }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return .closed
            }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                scanned.removeAll()
                let ok = buffer[..<newline].withUnsafeBytes { ResponseScanner.scan($0, into: &scanned) }
                buffer.removeSubrange(...newline)
                guard ok else { return .badAnswer }
                for response in scanned where response.hasID {
                    guard response.id == id else { return .badAnswer }
                    return echo || (response.hasResult && !response.hasError) ? .answered : .badAnswer
                }
            }
            if buffer.count > 1 << 24 { return .badAnswer }
        }
        return .timedOut
    }
}
