import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif
import Logging
import PayRPCTestSupport

@Suite("Signals", .serialized, .onThreadOfItsOwn)
struct SignalTests {
    @Test("SIGTERM starts a graceful shutdown")
    func sigterm() throws {
        var configuration = TransportConfiguration.testDefault
        configuration.handlesSignals = true
        let factory = TestHandlerFactory()
        let running = try RunningServer(configuration: configuration, factory: factory) {
            try $0.listen(.tcp(host: "127.0.0.1", port: 0))
        }
        // Once a job has run, run() has installed the signal handlers.
        #expect(running.onLoop { _ in true } == true)
        let client = try SocketClient(tcp: running.address)
        try client.send("later 100 answered\n")
        #expect(factory.events.wait(for: "line"))
        #expect(kill(getpid(), SIGTERM) == 0)
        #expect(try client.readToEOF() == ["answered"])
        client.close()
        #expect(running.waitUntilStopped())
        #expect(running.logs.all.contains { $0.1 == "shutting down" && $0.2["reason"] == "SIGTERM" })
        client.close()
    }
}
