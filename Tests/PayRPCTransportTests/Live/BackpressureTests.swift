import PayRPCTestSupport
import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Backpressure and pausing", .serialized, .onThreadOfItsOwn)
struct BackpressureTests {
    /// A TCP server of ``TestHandler``s with these water marks.
    static func tcpServer(highWaterMark: Int, lowWaterMark: Int) throws
        -> (TransportConfiguration, TestHandlerFactory, RunningServer)
    {
        var configuration = TransportConfiguration.testDefault
        configuration.highWaterMark = highWaterMark
        configuration.lowWaterMark = lowWaterMark
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        return (configuration, factory, running)
    }

    @Test("A client that writes a lot and never reads is stopped at the high-water mark; others are served")
    func neverReadingClient() throws {
        let (configuration, factory, running) = try Self.tcpServer(highWaterMark: 256 * 1024, lowWaterMark: 64 * 1024)
        let flooder = try SocketClient(tcp: running.address)
        flooder.setNonBlocking()
        let line = Array((String(repeating: "f", count: 1023) + "\n").utf8)
        let block = Array([[UInt8]](repeating: line, count: 64).joined())
        var sent = 0
        // Write until the socket stays full: the server has stopped reading it.
        var stalled = false
        while !stalled && sent < 512 * 1024 * 1024 {
            let count = block.withUnsafeBytes { send(flooder.fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
                continue
            }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { break }
            var poller = pollfd(fd: flooder.fd, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 200) == 0 {
                // Full for a while: stalled if the server says it stopped reading (not just slow).
                stalled = running.onLoop { $0.openConnections.first?.backpressured ?? false } ?? false
            }
        }
        #expect(stalled)
        #expect(sent > configuration.highWaterMark)

        let state = running.onLoop { server in
            server.openConnections.map { ($0.backpressured, $0.isReading, $0.queuedBytes, $0.peakQueuedBytes) }
        }
        let flooding = try #require(state?.first)
        #expect(flooding.0, "reading is paused by backpressure")
        #expect(!flooding.1)
        #expect(flooding.2 > configuration.highWaterMark)
        // Bounded: the mark plus at most what one read callback could produce.
        #expect(flooding.3 <= configuration.highWaterMark + 256 * 1024)

        // Another client is served meanwhile.
        let other = try SocketClient(tcp: running.address)
        for index in 0..<20 {
            try other.send("ping \(index)\n")
            #expect(try other.readLine() == "ping \(index)")
        }
        other.close()
        flooder.reset()
        #expect(factory.events.wait(for: "closed", times: 2))
        #expect(running.stop())
    }

    @Test("Answers a handler holds count against the high-water mark: delivery stops when they pass it")
    func heldAnswersStopDelivery() throws {
        let (configuration, factory, running) = try Self.tcpServer(highWaterMark: 64 * 1024, lowWaterMark: 16 * 1024)
        let client = try SocketClient(tcp: running.address)
        // 300 requests in one write (one read on the server), each answered by 4,001 held bytes:
        // 1.2 MB if the connection did not count what the handler holds.
        let count = 300
        try client.send(String(repeating: "gather 4000\n", count: count))
        let lines = try client.readLines(count)
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0 == String(repeating: "g", count: 4000) })
        #expect(factory.maximumHeld > configuration.highWaterMark)
        #expect(factory.maximumHeld <= configuration.highWaterMark + 4001)
        client.close()
        #expect(running.stop())
    }

    @Test("A reader that was stopped resumes below the low-water mark and gets everything")
    func slowReaderGetsEverything() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.highWaterMark = 128 * 1024
        configuration.lowWaterMark = 32 * 1024
        let running = try RunningServer(configuration: configuration, factory: TestHandlerFactory()) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let client = try SocketClient(tcp: running.address)
        let count = 4000
        let payload = String(repeating: "p", count: 900)
        // Send on another thread while this one reads, so neither side blocks the other.
        let fd = client.fd
        let writer = Thread {
            var text = ""
            for index in 0..<count { text += "\(index) \(payload)\n" }
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return }
                offset += sent
            }
        }
        writer.start()
        let lines = try client.readLines(count)
        #expect(lines.count == count)
        #expect(lines.enumerated().allSatisfy { $0.element == "\($0.offset) \(payload)" })
        client.close()
        #expect(running.stop())
    }

    @Test("A handler that pauses reading gets the lines already received after it resumes, in order")
    func handlerPause() throws {
        let factory = TestHandlerFactory(inFlightLimit: 2)
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        // All in one write: the lines after the second are in the read buffer when it pauses.
        var text = ""
        for index in 0..<30 { text += "later 3 a\(index)\n" }
        try client.send(text + "tail")
        client.shutdownWrite()
        let answers = try client.readToEOF()
        #expect(answers.filter { $0 != "tail" } == (0..<30).map { "a\($0)" })
        #expect(answers.filter { $0 == "tail" }.count == 1)
        #expect(factory.events.count("paused") >= 10)
        client.close()
        #expect(running.stop())
    }
}
