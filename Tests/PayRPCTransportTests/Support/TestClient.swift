import Foundation
import PayRPCTransport
import Testing

#if canImport(Glibc)
import Glibc
#endif
import CLibUV

/// What a test client can fail with.
struct TestClientError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking socket client for live tests: every read and write has a timeout, so a test that
/// goes wrong fails instead of hanging.
final class TestClient {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []
    private var reachedEOF = false
    /// The stream ended with a reset (ECONNRESET) rather than a clean EOF.
    private(set) var wasReset = false

    /// Connects to `host:port` or `[v6]:port`.
    init(tcp address: String, timeout: TimeInterval = 10) throws {
        let (host, port) = try TestClient.split(address)
        var storage = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        if host.contains(":") {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(port).bigEndian
            guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { throw TestClientError(description: "bad host \(host)") }
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            family = AF_INET6
        } else {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(port).bigEndian
            guard inet_pton(AF_INET, host, &v4.sin_addr) == 1 else { throw TestClientError(description: "bad host \(host)") }
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            family = AF_INET
        }
        fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(errno)") }
        let code = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard code == 0 else {
            let error = errno
            Glibc.close(fd)
            throw TestClientError(description: "connect \(address): errno \(error)")
        }
        setTimeout(timeout)
    }

    /// Connects to a Unix socket.
    init(unix path: String, timeout: TimeInterval = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(errno)") }
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
            throw TestClientError(description: "connect \(path): errno \(error)")
        }
        setTimeout(timeout)
    }

    deinit { close() }

    private static func split(_ address: String) throws -> (String, Int) {
        guard case .tcp(let host, let port) = try Endpoint.parse(address) else {
            throw TestClientError(description: "not a TCP address: \(address)")
        }
        return (host, port)
    }

    func setTimeout(_ seconds: TimeInterval) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `text`.
    func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    /// Sends all of `bytes`.
    func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// The next line (without `\n`), or `nil` at EOF. Throws on timeout.
    func readLineBytes() throws -> [UInt8]? {
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
                throw TestClientError(description: "recv failed or timed out: errno \(errno)")
            }
        }
    }

    /// The next line as text, or `nil` at EOF.
    func readLine() throws -> String? {
        try readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next `count` lines; fails if the stream ends first.
    func readLines(_ count: Int) throws -> [String] {
        var lines: [String] = []
        for _ in 0..<count {
            guard let line = try readLine() else { throw TestClientError(description: "EOF after \(lines.count) lines") }
            lines.append(line)
        }
        return lines
    }

    /// Every line until EOF.
    func readToEOF() throws -> [String] {
        var lines: [String] = []
        while let line = try readLine() { lines.append(line) }
        return lines
    }

    /// Half-closes: the server sees EOF, the client can still read.
    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Closes the socket. Idempotent.
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes with a reset (SO_LINGER 0): the abrupt disconnect of a crashed client.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Makes the socket non-blocking (for the client that never reads).
    func setNonBlocking() {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
}
