import PayRPCTransport
#if canImport(Glibc)
import Glibc
#endif

/// Where the server under test listens: a loopback TCP port or a Unix socket. The bench never sends
/// traffic anywhere else.
enum TargetAddress: CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    /// Parses `HOST:PORT`; the host must be a loopback IPv4 address (`127.x.x.x`) or `localhost`.
    /// - Throws: ``BenchError`` for anything else.
    static func tcp(_ text: String) throws(BenchError) -> TargetAddress {
        guard let endpoint = try? Endpoint.parse(text), case .tcp(var host, let port) = endpoint, port > 0 else {
            throw BenchError("--tcp wants HOST:PORT, got \(text)")
        }
        if host == "localhost" { host = "127.0.0.1" }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1, UInt32(bigEndian: address.s_addr) >> 24 == 127 else {
            throw BenchError("--tcp host must be a loopback address (127.0.0.1), got \(host)")
        }
        return .tcp(host: host, port: UInt16(port))
    }

    /// `tcp 127.0.0.1:7070` or `unix /path`.
    var description: String {
        switch self {
        case .tcp(let host, let port): return "tcp \(host):\(port)"
        case .unix(let path): return "unix \(path)"
        }
    }

    /// The transport name used in reports.
    var transportName: String {
        switch self {
        case .tcp: return "tcp"
        case .unix: return "unix"
        }
    }

    /// Opens one non-blocking connection, retrying refused or missing endpoints until `timeout`
    /// seconds have passed (the server may still be starting) or the server process `serverPID`, when
    /// given, has exited.
    /// - Throws: ``BenchError`` when no connection could be made in time.
    func connect(timeout: Double, serverPID: pid_t? = nil) throws(BenchError) -> Int32 {
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(timeout)
        var lastError: Int32 = 0
        while true {
            switch attemptConnect(deadline: deadline) {
            case .success(let fd):
                return fd
            case .failure(let code):
                lastError = code
            }
            if MonotonicClock.now() >= deadline || Interrupt.requested { break }
            if let serverPID, !ProcessStats(pid: serverPID).isAlive {
                throw BenchError("cannot connect to \(self): the server process \(serverPID) has exited")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)  // retry back-off while the server starts
            nanosleep(&pause, nil)
        }
        throw BenchError("cannot connect to \(self): \(String(cString: strerror(lastError)))")
    }

    private enum Attempt {
        case success(Int32)
        case failure(Int32)
    }

    private func attemptConnect(deadline: UInt64) -> Attempt {
        let fd: Int32
        let result: Int32
        switch self {
        case .tcp(let host, let port):
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return .failure(errno) }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .unix(let path):
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return .failure(errno) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let pathBytes = Array(path.utf8)
            guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(fd)
                return .failure(ENAMETOOLONG)
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: pathBytes)
            }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        if result == 0 { return .success(fd) }
        let code = errno
        guard code == EINPROGRESS else {  // EAGAIN (unix backlog full): retry
            close(fd)
            return .failure(code)
        }
        // Wait for the handshake, bounded by the deadline.
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let remaining = deadline > MonotonicClock.now() ? (deadline - MonotonicClock.now()) / 1_000_000 : 0
        let ready = poll(&entry, 1, Int32(min(remaining + 1, 60_000)))
        guard ready == 1 else {
            close(fd)
            return .failure(ready == 0 ? ETIMEDOUT : errno)
        }
        var soError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
        if soError != 0 {
            close(fd)
            return .failure(soError)
        }
        return .success(fd)
    }
}
