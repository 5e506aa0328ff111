import Foundation
import Testing
@testable import PayRPCTransport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Closing", .serialized)
struct ClosingTests {
    @Test("A connection the handler finishes while the client is still sending gets its last answer, not a reset")
    func finishWhileClientSends() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        for _ in 0..<5 {
            let client = try TestClient(tcp: running.address)
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
}
