import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif
import Logging
import PayRPCTestSupport

@Suite("Live sockets", .serialized, .onThreadOfItsOwn)
struct SocketTests {
    @Test("TCP IPv4 round trip")
    func tcp4() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        #expect(running.address.hasPrefix("127.0.0.1:"))
        #expect(!running.address.hasSuffix(":0"))
        let client = try SocketClient(tcp: running.address)
        try client.send("hello\n")
        #expect(try client.readLine() == "hello")
        client.close()
        #expect(factory.events.wait(for: "closed"))
        #expect(running.stop())
    }

    @Test("The lines of one read are delivered, then the handler is told they all were, once")
    func linesOfOneReadThenOneNotice() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        try client.send("one\ntwo\nthree\n")
        for expected in ["one", "two", "three"] { #expect(try client.readLine() == expected) }
        #expect(factory.events.wait(for: "lines delivered"))
        // Every line comes before the notice that follows it, and a notice follows the last line.
        let events = factory.events.all.filter { $0 == "line" || $0 == "lines delivered" }
        #expect(events.filter { $0 == "line" }.count == 3)
        #expect(events.last == "lines delivered")
        #expect(events.first == "line")
        client.close()
        #expect(running.stop())
    }

    @Test("A host name is resolved; the bound address shows the real port")
    func hostName() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { try $0.listen(try Endpoint.parse("localhost:0")) }
        let address = running.address
        #expect(address.hasPrefix("127.0.0.1:") || address.hasPrefix("[::1]:"))
        let client = try SocketClient(tcp: address)
        try client.send("by name\n")
        #expect(try client.readLine() == "by name")
        client.close()
        #expect(running.stop())
    }

    @Test("TCP IPv6 round trip")
    func tcp6() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "::1", port: 0)) }
        #expect(running.address.hasPrefix("[::1]:"))
        let client = try SocketClient(tcp: running.address)
        try client.send("{\"v6\":true}\r\n")
        #expect(try client.readLine() == "{\"v6\":true}")
        client.close()
        #expect(running.stop())
    }

    @Test("Unix socket round trip; the file is 0600 and removed at shutdown")
    func unixSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.unix(path: path)) }
        #expect(running.server.boundAddresses == [path])
        #expect(fileMode(path) == 0o600)
        let client = try SocketClient(unix: path)
        try client.send("over unix\n")
        #expect(try client.readLine() == "over unix")
        client.close()
        #expect(running.stop())
        #expect(access(path, F_OK) != 0)
    }

    @Test("A stale unix socket file is replaced; a live one is refused; a regular file is left alone")
    func staleAndLiveSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        // A stale socket: bound, then closed without unlinking.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(access(path, F_OK) == 0)

        let first = try RunningServer(factory: TestHandlerFactory()) { try $0.listen(.unix(path: path)) }
        let client = try SocketClient(unix: path)
        try client.send("alive\n")
        #expect(try client.readLine() == "alive")

        // A second server on the same, live path is refused.
        let second = LibUVServer(configuration: .testDefault, handlerFactory: TestHandlerFactory(), logger: .init(label: "t"))
        #expect {
            try second.listen(.unix(path: path))
        } throws: { error in
            (error as? TransportError)?.code == UVCode.addressInUse
        }
        // The first one still serves.
        try client.send("still\n")
        #expect(try client.readLine() == "still")
        client.close()
        #expect(first.stop())

        // A path that is not a socket is never deleted.
        let file = directory + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        defer { unlink(file) }
        let third = LibUVServer(configuration: .testDefault, handlerFactory: TestHandlerFactory(), logger: .init(label: "t"))
        #expect(throws: TransportError.self) { try third.listen(.unix(path: file)) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }

    @Test("1000 pipelined lines on one connection are answered in order")
    func pipelined() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        let requests = (0..<1000).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"echo\"}" }
        try client.send(requests.joined(separator: "\n") + "\n")
        #expect(try client.readLines(1000) == requests)
        // Answers written while handling one read go out together, not one write per line.
        let flushes = try #require(running.onLoop { $0.openConnections.first?.flushCount } ?? nil)
        #expect(flushes < 100)
        client.close()
        #expect(running.stop())
    }

    @Test("Answers from timers and from other threads reach the right connection")
    func asynchronousAnswers() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        var expected: Set<String> = []
        var requests = ""
        for index in 0..<200 {
            requests += index.isMultiple(of: 2) ? "offloop o\(index)\n" : "later \(index % 7) t\(index)\n"
            expected.insert(index.isMultiple(of: 2) ? "o\(index)" : "t\(index)")
        }
        try client.send(requests)
        #expect(Set(try client.readLines(200)) == expected)
        client.close()
        #expect(running.stop())
    }

    @Test("An oversized line is reported once and the next line on the same connection is served")
    func oversizedLine() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.maxLineBytes = 64
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let client = try SocketClient(tcp: running.address)
        try client.send(String(repeating: "x", count: 1000) + "\nok\n")
        #expect(try client.readLines(2) == ["oversized 64", "ok"])
        // Streamed in pieces: still one report, and the connection keeps working.
        for _ in 0..<20 { try client.send(String(repeating: "y", count: 5000)) }
        try client.send("\nafter\n")
        #expect(try client.readLines(2) == ["oversized 64", "after"])
        #expect(factory.events.count("oversized") == 2)
        client.close()
        #expect(running.stop())
    }

    @Test("Garbage bytes do not disturb the connection")
    func garbageBytes() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        let garbage: [UInt8] = [0x00, 0xFF, 0xFE, 0xC3, 0x28, 0x0D, 0x1B, 0x5B, 0x41, 0x7F, 0x80]
        try client.send(bytes: garbage + [0x0A] + Array("{\"ok\":1}\n".utf8))
        #expect(try client.readLineBytes() == garbage)
        #expect(try client.readLine() == "{\"ok\":1}")
        client.close()
        #expect(running.stop())
    }

    @Test("Half-close: the answers to everything sent arrive, then the server closes")
    func halfClose() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        try client.send("later 30 slow\nfast\nhalf a li")
        client.shutdownWrite()
        let answers = try client.readToEOF()
        #expect(answers.first == "fast")
        #expect(answers.sorted() == ["fast", "half a li", "slow"])
        #expect(factory.events.wait(for: "closed"))
        #expect(factory.events.count("inputEnded") == 1)
        client.close()
        #expect(running.stop())
    }

    @Test("A client that disconnects mid-response does not disturb another")
    func disconnectMidResponse() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let leaving = try SocketClient(tcp: running.address)
        let staying = try SocketClient(tcp: running.address)
        try staying.send("before\n")
        #expect(try staying.readLine() == "before")
        // A large answer it will never read, and an answer that comes after it is gone.
        try leaving.send("big 8000000\nawait late too late\n")
        #expect(factory.events.wait(for: "parked late"))
        leaving.reset()
        #expect(factory.events.wait(for: "closed"))
        factory.release("late")
        for index in 0..<50 {
            try staying.send("still \(index)\n")
            #expect(try staying.readLine() == "still \(index)")
        }
        // The late answer to the client that left is written to a closed connection: dropped.
        #expect(factory.events.wait(for: "write after close"))
        try staying.send("later 10 after the late one\n")
        #expect(try staying.readLine() == "after the late one")
        #expect(running.onLoop { $0.openConnectionCount } == 1)
        staying.close()
        #expect(running.stop())
    }

    @Test("Over the connection limit a connection is accepted and closed at once, with a warning")
    func connectionLimit() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.maxConnections = 1
        let running = try RunningServer(configuration: configuration, factory: TestHandlerFactory()) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let first = try SocketClient(tcp: running.address)
        try first.send("one\n")
        #expect(try first.readLine() == "one")
        let second = try SocketClient(tcp: running.address)
        #expect(try second.readLine() == nil)
        #expect(running.logs.messages(atLeast: .warning).contains { $0.contains("connection limit") })
        try first.send("two\n")
        #expect(try first.readLine() == "two")
        first.close()
        second.close()
        #expect(running.stop())
    }

    @Test("The idle timeout also closes a peer that stopped reading its answers")
    func idleStalledReader() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.idleTimeout = .milliseconds(200)
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let stalled = try SocketClient(tcp: running.address)
        try stalled.send("big 16000000\n")
        #expect(factory.events.wait(for: "closed"))
        #expect(running.onLoop { $0.openConnectionCount } == 0)
        stalled.close()
        #expect(running.stop())
    }

    @Test("The idle timeout closes a silent connection but not one with work in flight")
    func idleTimeout() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.idleTimeout = .milliseconds(100)
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let silent = try SocketClient(tcp: running.address)
        #expect(try silent.readLine() == nil)
        let busy = try SocketClient(tcp: running.address)
        try busy.send("later 400 done\n")
        #expect(try busy.readLine() == "done")
        #expect(try busy.readLine() == nil)
        #expect(running.logs.messages(atLeast: .info).contains { $0.contains("idle") })
        silent.close()
        busy.close()
        #expect(running.stop())
    }
}
