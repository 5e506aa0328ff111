import Foundation
import PayRPCJSON
import PayRPCTransport
#if canImport(Glibc)
import Glibc
#endif

/// The one socket client of the tests: a plain POSIX connection to a real TCP or Unix listener
/// (the transport's tests, the spawned binary's), with control over half-closing, not reading,
/// resetting and vanishing. Blocking reads (`readLine`, under the socket's timeout) for tests that
/// drive a server on another thread; waits that do not block (`nextLine`, `poll(2)` on a thread of
/// its own) for async tests.
///
/// `@unchecked Sendable`: a test uses one client from one task at a time.
public final class SocketClient: @unchecked Sendable {
    public private(set) var fd: Int32
    private var buffer: [UInt8] = []
    private var reachedEOF = false
    /// The stream ended with a reset (ECONNRESET) rather than a clean EOF.
    public private(set) var wasReset = false

    /// Connects to `host:port` or `[v6]:port`.
    public init(tcp address: String, timeout: TimeInterval = 10) throws {
        let (host, port) = try SocketClient.split(address)
        var storage = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        if host.contains(":") {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(port).bigEndian
            guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { throw SocketClientError("bad host \(host)") }
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            family = AF_INET6
        } else {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(port).bigEndian
            guard inet_pton(AF_INET, host, &v4.sin_addr) == 1 else { throw SocketClientError("bad host \(host)") }
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            family = AF_INET
        }
        fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketClientError("socket: \(errno)") }
        let code = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard code == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SocketClientError("connect \(address): errno \(error)")
        }
        setTimeout(timeout)
    }

    /// Connects to a Unix socket.
    public init(unix path: String, timeout: TimeInterval = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketClientError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let code = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard code == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SocketClientError("connect \(path): errno \(error)")
        }
        setTimeout(timeout)
    }

    deinit { close() }

    private static func split(_ address: String) throws -> (String, Int) {
        guard case .tcp(let host, let port) = try Endpoint.parse(address) else {
            throw SocketClientError("not a TCP address: \(address)")
        }
        return (host, port)
    }

    public func setTimeout(_ seconds: TimeInterval) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `text`.
    public func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    /// Sends all of `bytes`.
    public func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw SocketClientError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// The next line (without `\n`), or `nil` at EOF. Throws on timeout.
    public func readLineBytes() throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            if reachedEOF {
                if buffer.isEmpty { return nil }
                defer { buffer.removeAll() }
                return buffer
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                reachedEOF = true
            } else if errno == ECONNRESET {
                reachedEOF = true
                wasReset = true
            } else {
                throw SocketClientError("recv failed or timed out: errno \(errno)")
            }
        }
    }

    /// The next line as text, or `nil` at EOF.
    public func readLine() throws -> String? {
        try readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next `count` lines; fails if the stream ends first.
    public func readLines(_ count: Int) throws -> [String] {
        var lines: [String] = []
        for _ in 0..<count {
            guard let line = try readLine() else { throw SocketClientError("EOF after \(lines.count) lines") }
            lines.append(line)
        }
        return lines
    }

    /// Every line until EOF.
    public func readToEOF() throws -> [String] {
        var lines: [String] = []
        while let line = try readLine() { lines.append(line) }
        return lines
    }

    /// Half-closes: the server sees EOF, the client can still read.
    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Closes the socket. Idempotent.
    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes with a reset (SO_LINGER 0): the abrupt disconnect of a crashed client.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Makes the socket non-blocking (for the client that never reads).
    public func setNonBlocking() {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    // MARK: - Waiting without blocking (poll on a thread of its own)

    /// Writes all of `bytes` (blocking).
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Writes bytes without blocking; returns how many went out.
    public func tryWrite(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Waits (`poll(2)` for POLLOUT, on a thread of its own) until the socket takes more bytes;
    /// false when `timeout` seconds pass first.
    public func waitUntilWritable(timeout: Double) async -> Bool {
        guard timeout > 0 else { return false }
        let fd = self.fd
        let ready = await EventWait.blocking(timeout: timeout + 1) {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            return poll(&entry, 1, Int32(timeout * 1000)) == 1 && entry.revents & Int16(POLLOUT) != 0
        }
        return ready == true
    }

    /// Writes one line (the newline added).
    public func sendLine(_ line: String) { write(Array((line + "\n").utf8)) }

    /// The next line; nil at EOF or after the timeout.
    public func nextLine(timeout: Double = 15) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard await readable(before: deadline), receiveAvailable() else { return nil }
        }
    }

    /// The next line as JSON.
    public func nextMessage(timeout: Double = 15) async -> JSONValue? {
        await nextLine(timeout: timeout).flatMap { JSONValue(parsingIfValid: $0) }
    }

    /// Whether the server closed the connection (EOF) within the timeout.
    public func waitForEOF(timeout: Double = 15) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while await readable(before: deadline) {
            if !receiveAvailable() { return true }
        }
        return false
    }

    /// Waits until the socket is readable (data, EOF or an error) or `deadline` passes, in
    /// `poll(2)` on a thread of its own.
    private func readable(before deadline: Date) async -> Bool {
        let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow, 600)) * 1000)
        let fd = self.fd
        return await EventWait.blocking(timeout: Double(milliseconds) / 1000 + 5) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, milliseconds) > 0
        } ?? false
    }

    /// Reads what is there into the buffer; false at EOF or on an error.
    private func receiveAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        if count <= 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}

/// What a socket client failed to do.
public struct SocketClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
