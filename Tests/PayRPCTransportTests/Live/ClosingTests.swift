import PayRPCTestSupport
import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Closing", .serialized, .onThreadOfItsOwn)
struct ClosingTests {
    @Test("A connection the handler finishes while the client is still sending gets its last answer, not a reset")
    func finishWhileClientSends() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        for _ in 0..<5 {
            let client = try SocketClient(tcp: running.address)
            try client.send("one\nquit\n" + String(repeating: "{\"after\":\"quit\"}\n", count: 20_000))
            #expect(try client.readLine() == "one")
            #expect(try client.readLine() == "bye")
            #expect(try client.readLine() == nil)
            #expect(!client.wasReset)
            client.close()
        }
        #expect(factory.events.wait(for: "closed", times: 5))
        #expect(running.stop())
    }

    @Test("After finishing, a socket lingers: what the client still sends is discarded, not answered with a reset")
    func lingeringClose() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        try client.send("quit\n")
        #expect(try client.readLine() == "bye")
        #expect(try client.readLine() == nil)
        for index in 0..<3 {
            try client.send("sent after the server finished \(index)\n")
            // A reset would show as POLLERR/POLLHUP at once on loopback.
            var poller = pollfd(fd: client.fd, events: 0, revents: 0)
            #expect(poll(&poller, 1, 100) == 0)
        }
        #expect(!client.wasReset)
        #expect(factory.events.count("line") == 1)
        client.close()
        #expect(factory.events.wait(for: "closed"))
        #expect(running.stop())
    }
}
