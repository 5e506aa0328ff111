@testable import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// A service's value for one connection: made once, changed in place, answers written into one
/// reused buffer, gone when the connection closes.
@Suite struct ConnectionValueTests {
    struct Flow: Sendable, Equatable {
        var payments = 0
    }

    @Test("made on first use, the same value found again, changed atomically; a new one after close")
    func lifecycle() {
        let loop = ThreadEventLoop()
        defer { loop.stop() }
        let connection = ConnectionSession(
            id: 1, transport: .memory, loop: loop, deliver: { _, _ in }, notificationCheck: { _, _ in nil })
        var made = 0
        let value = ConnectionValue<Flow>.of(connection) {
            made += 1
            return Flow()
        }
        value.withValue { $0.payments += 1 }
        let again = ConnectionValue<Flow>.of(connection) {
            made += 1
            return Flow()
        }
        #expect(again === value && made == 1)
        #expect(again.withValue { $0 } == Flow(payments: 1))
        // Another value type is another object on the same connection.
        let other = ConnectionValue<Int>.of(connection) { 7 }
        #expect(other.withValue { $0 } == 7)
        #expect(value.withValue { $0.payments } == 1)
        connection.markClosed()
        let fresh = ConnectionValue<Flow>.of(connection) { Flow(payments: 9) }
        #expect(fresh !== value && fresh.withValue { $0.payments } == 9)
    }

    @Test("answers are written into the last one's buffer once it is dropped, never into one still held")
    func answersReuseTheBuffer() throws {
        let loop = ThreadEventLoop()
        defer { loop.stop() }
        let connection = ConnectionSession(
            id: 2, transport: .memory, loop: loop, deliver: { _, _ in }, notificationCheck: { _, _ in nil })
        let template = try TextTemplate<Slot>("payment {number}")
        let value = ConnectionValue<Flow>.of(connection) { Flow() }
        func pay() -> UTF8Text {
            value.withValue { flow, answer in
                flow.payments += 1
                let number = MinorUnitsText(Int64(flow.payments), scale: 0)
                template.fill(into: &answer) { _, text in text.append(number) }
            }
        }
        let held = pay()
        let heldAddress = held.withUnsafeBytes { $0.baseAddress }
        let second = pay()
        #expect(held.description == "payment 1" && second.description == "payment 2")
        #expect(second.withUnsafeBytes { $0.baseAddress } != heldAddress)
        let secondAddress = second.withUnsafeBytes { $0.baseAddress }
        _ = consume second
        let third = pay()
        #expect(third.description == "payment 3")
        #expect(third.withUnsafeBytes { $0.baseAddress } == secondAddress)
        #expect(value.withValue { $0.payments } == 3)
    }

    enum Slot: String, TemplateSlot {
        case number
    }
}
