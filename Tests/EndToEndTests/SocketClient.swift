import Foundation
import PayRPCJSON
import PayRPCTestSupport
import PayRPCTransport
#if canImport(Glibc)
import Glibc
#endif

/// A plain POSIX socket client for end-to-end tests: real TCP and Unix connections to the
/// spawned server, with control over half-closing, not reading, and vanishing.
final class SocketClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// Connects to `host:port` (IPv4 or `[v6]`).
    static func tcp(_ address: String) throws -> SocketClient {
        guard let endpoint = try? Endpoint.parse(address), case .tcp(let host, let port) = endpoint else {
            throw ClientError("bad address \(address)")
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { throw ClientError("resolve \(host)") }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
        guard fd >= 0, connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw ClientError("connect \(address): \(String(cString: strerror(errno)))")
        }
        return SocketClient(fd: fd)
    }

    /// Connects to a Unix socket.
    static func unix(_ path: String) throws -> SocketClient {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw ClientError("connect \(path): \(String(cString: strerror(errno)))")
        }
        return SocketClient(fd: fd)
    }

    /// Writes all of `bytes` (blocking).
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Writes bytes without blocking; returns how many went out.
    func tryWrite(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Waits (`poll(2)` for POLLOUT, on a thread of its own) until the socket takes more bytes;
    /// false when `timeout` seconds pass first.
    func waitUntilWritable(timeout: Double) async -> Bool {
        guard timeout > 0 else { return false }
        let fd = self.fd
        let ready = await EventWait.blocking(timeout: timeout + 1) {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            return poll(&entry, 1, Int32(timeout * 1000)) == 1 && entry.revents & Int16(POLLOUT) != 0
        }
        return ready == true
    }

    /// Writes one line.
    func send(_ line: String) { write(Array((line + "\n").utf8)) }

    /// Shuts down the writing side (the server sees EOF but can still answer).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line; nil at EOF or after the timeout.
    func nextLine(timeout: Double = 15) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard await readable(before: deadline), receive() else { return nil }
        }
    }

    /// The next line as JSON.
    func nextMessage(timeout: Double = 15) async -> JSONValue? {
        await nextLine(timeout: timeout).flatMap { try? JSONValue(parsing: $0) }
    }

    /// Whether the server closed the connection (EOF) within the timeout.
    func waitForEOF(timeout: Double = 15) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while await readable(before: deadline) {
            if !receive() { return true }
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
    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        if count <= 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}

/// A test client failure.
struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
