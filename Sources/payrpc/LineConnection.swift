import ArgumentParser
import Foundation
import PayRPCProcess
import PayRPCTransport
#if canImport(Glibc)
import Glibc
#endif

/// A blocking newline-delimited connection for `payrpc call` and `payrpc calls`: a TCP or Unix
/// socket, or the pipes of a spawned `payrpc serve --stdio`.
final class LineConnection {
    private let readFD: Int32
    private let writeFD: Int32
    private let process: SpawnedProcess?
    private var buffer: [UInt8] = []
    /// How much of `buffer` holds no newline (a long line arriving in many reads is scanned once).
    private var scanned = 0

    private init(readFD: Int32, writeFD: Int32, process: SpawnedProcess?) {
        self.readFD = readFD
        self.writeFD = writeFD
        self.process = process
    }

    /// Connects to `host:port` (`[::1]:7070` for IPv6).
    static func tcp(_ address: String) throws -> LineConnection {
        let (host, port) = try tcpAddress(address)
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
            throw ValidationError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let current = info {
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if fd >= 0, connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
                return LineConnection(readFD: fd, writeFD: fd, process: nil)
            }
            if fd >= 0 { Glibc.close(fd) }
            info = current.pointee.ai_next
        }
        throw ConnectFailure(address: address, code: errno)
    }

    /// The host and port of `address` (`host:port`, `[::1]:7070`).
    /// - Throws: `ValidationError` when it is not one (what a command's `validate()` reports).
    static func tcpAddress(_ address: String) throws -> (host: String, port: Int) {
        guard let endpoint = try? Endpoint.parse(address), case .tcp(let host, let port) = endpoint else {
            throw ValidationError("--tcp takes HOST:PORT ([IPv6]:PORT), got \(address)")
        }
        return (host, Int(port))
    }

    /// Connects to a Unix socket.
    static func unix(_ path: String) throws -> LineConnection {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ValidationError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ValidationError("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ConnectFailure(address: path, code: code)
        }
        return LineConnection(readFD: fd, writeFD: fd, process: nil)
    }

    /// Calls `connect` until it succeeds, retrying for up to `seconds` while nothing listens yet
    /// (a server started in the background a moment ago): the first failure of any other kind,
    /// or the last one, is thrown. A pause of 50 ms between attempts (there is no event to wait
    /// for on an address nobody listens on).
    static func connecting(within seconds: Double, _ connect: () throws -> LineConnection) throws -> LineConnection {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try connect()
            } catch let failure as ConnectFailure where failure.nobodyListens && Date() < deadline {
                usleep(50_000)
            }
        }
    }

    /// Spawns the server (`executable`, normally this very binary) and talks to it over its stdin and
    /// stdout; its stderr is inherited. Blocks the calling thread while it starts (`call` is synchronous).
    static func spawn(executable: String, arguments: [String]) throws -> LineConnection {
        let path = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let process = try SpawnedProcess.startBlocking(path, arguments: arguments)
        return LineConnection(readFD: process.standardOutput, writeFD: process.standardInput, process: process)
    }

    /// Writes one line.
    func send(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(writeFD, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { throw ValidationError("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next line, or nil at EOF or when the deadline passes.
    func readLine(deadline: Date) throws -> String? {
        if case .line(let line) = nextLine(deadline: deadline, interrupt: nil) { return line }
        return nil
    }

    /// What waiting for a line gave: the line, the end of the stream (EOF or a read error), the
    /// deadline, or the interrupting descriptor becoming readable.
    enum LineRead: Equatable {
        case line(String)
        case end
        case timedOut
        case interrupted
    }

    /// Waits for the next line until `deadline` (nil: no deadline), or until `interrupt` (a
    /// descriptor such as ``StopSignals``'s, never read here) becomes readable: one `poll(2)` on
    /// both, no periodic wake-ups.
    func nextLine(deadline: Date?, interrupt: Int32?) -> LineRead {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                scanned = 0
                return .line(line)
            }
            scanned = buffer.count
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { return .timedOut }
                timeout = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            }
            var pollers = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
            if let interrupt { pollers.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&pollers, nfds_t(pollers.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            if pollers.count > 1 && pollers[1].revents != 0 { return .interrupted }
            guard pollers[0].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .end }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Closes the connection; a spawned server gets EOF on stdin, drains and exits.
    func close() {
        if let process {
            process.stopBlocking(grace: 5)
        } else {
            Glibc.close(readFD)
        }
    }
}

/// A socket that could not connect: `cannot connect to 127.0.0.1:7070: Connection refused`.
struct ConnectFailure: Error, CustomStringConvertible {
    /// The address as the user gave it.
    let address: String
    /// The `errno` of `connect(2)`.
    let code: Int32

    /// Whether nothing listens there (yet): refused, or no socket file.
    var nobodyListens: Bool { code == ECONNREFUSED || code == ENOENT }

    var description: String { "cannot connect to \(address): \(String(cString: strerror(code)))" }
}
