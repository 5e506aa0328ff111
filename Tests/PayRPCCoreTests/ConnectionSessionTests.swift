@testable import PayRPCCore
import PayRPCTestSupport
import Testing

/// Per-connection objects: made once, found again by their class, dropped when the connection closes.
@Suite struct ConnectionSessionTests {
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    final class Other: @unchecked Sendable {}

    @Test("an object is made on first use, then the same instance is returned; closing drops it")
    func objectLifecycle() {
        let loop = ThreadEventLoop()
        defer { loop.stop() }
        let session = ConnectionSession(
            id: 1, transport: .memory, loop: loop, deliver: { _, _ in },
            notificationCheck: { _, _ in nil })
        var made = 0
        let first = session.object(Counter.self) {
            made += 1
            return Counter()
        }
        first.value = 7
        let again = session.object(Counter.self) {
            made += 1
            return Counter()
        }
        #expect(made == 1)
        #expect(again === first)
        #expect(again.value == 7)
        _ = session.object(Other.self) {
            made += 1
            return Other()
        }
        #expect(made == 2, "another class has an object of its own")

        session.markClosed()
        #expect(!session.isOpen)
        let afterClose = session.object(Counter.self) {
            made += 1
            return Counter()
        }
        #expect(afterClose !== first)
        #expect(afterClose.value == 0)
    }
}
