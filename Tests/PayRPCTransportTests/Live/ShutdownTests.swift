import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif
import Logging
import PayRPCTestSupport

@Suite("Shutdown", .serialized, .onThreadOfItsOwn)
struct ShutdownTests {
    @Test("shutdown() answers the requests in flight, closes the connections and returns from run()")
    func gracefulShutdown() throws {
        let factory = TestHandlerFactory()
        let started = TestEvents()
        let running = try RunningServer(factory: factory) { server in
            try server.listen(.tcp(host: "127.0.0.1", port: 0))
            server.onShutdownStarted = { started.record("draining") }
        }
        let address = running.address
        let first = try SocketClient(tcp: address)
        let second = try SocketClient(tcp: address)
        try first.send("later 200 a\nlater 100 b\n")
        try second.send("later 150 c\n")
        #expect(factory.events.wait(for: "line", times: 3))
        running.server.shutdown()
        #expect(started.wait(for: "draining"))
        #expect(try first.readToEOF() == ["b", "a"])
        #expect(try second.readToEOF() == ["c"])
        // Clients close once they see EOF; the server, lingering for that, then closes too.
        first.close()
        second.close()
        #expect(running.waitUntilStopped())
        #expect(factory.events.count("inputEnded") == 2)
        #expect(factory.events.count("closed") == 2)
        // The listener is closed.
        #expect(throws: SocketClientError.self) { _ = try SocketClient(tcp: address) }
    }

    @Test("shutdown() is idempotent and callable before run()")
    func shutdownBeforeRun() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { server in
            try server.listen(.tcp(host: "127.0.0.1", port: 0))
            server.shutdown()
            server.shutdown()
        }
        #expect(running.waitUntilStopped())
        running.server.shutdown()
    }

    @Test("After the drain timeout, connections that did not finish are closed")
    func drainTimeout() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.drainTimeout = .milliseconds(200)
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        let client = try SocketClient(tcp: running.address)
        try client.send("hang\n")
        #expect(factory.events.wait(for: "line"))
        running.server.shutdown()
        #expect(try client.readToEOF() == [])
        #expect(running.waitUntilStopped())
        #expect(factory.events.count("closed") == 1)
        #expect(running.logs.messages(atLeast: .warning).contains { $0.contains("drain timeout") })
        client.close()
    }

    @Test("Lines still held back by a paused handler are answered during a drain")
    func drainWithPausedHandler() throws {
        let factory = TestHandlerFactory(inFlightLimit: 1)
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let client = try SocketClient(tcp: running.address)
        try client.send("later 100 one\nlater 1 two\nthree\n")
        #expect(factory.events.wait(for: "paused"))
        running.server.shutdown()
        #expect(try client.readToEOF() == ["one", "two", "three"])
        client.close()
        #expect(running.waitUntilStopped())
    }
}
