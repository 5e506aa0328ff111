import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// The Payment Application's callback: refused without `Payment_Result`, and idempotent by
/// `Payment_Number` (one entry, one payment at the backend).
@Suite("journal callbacks")
struct CallbackTests {
    static let callback = "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"

    @Test("bad callbacks first: no Payment_Result, an unknown one, a known Payment_Number with other parameters")
    func badCallbacks() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let missing = await client.error("journal.handleCallback", ["url": .string(Self.callback + "&Payment_Number=1")])
        #expect(missing?.code == JournalErrorKind.invalidURL.code && missing?.data?["parameter"] == "Payment_Result")
        #expect(missing?.data?["expected"] == "approved, declined or cancelled" && missing?.data?["found"] == nil)
        let unknown = await client.error("journal.handleCallback", ["url": .string(Self.callback + "&Payment_Result=maybe")])
        #expect(unknown?.code == JournalErrorKind.invalidURL.code && unknown?.data?["found"] == "maybe")
        _ = try await client.call(
            "journal.handleCallback", ["url": .string(Self.callback + "&Payment_Result=approved&Payment_Number=7")])
        let other =
            "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=5&Startup_Mode=1&Payment_Result=approved&Payment_Number=7"
        let conflict = await client.error("journal.handleCallback", ["url": .string(other)])
        #expect(conflict?.code == JournalErrorKind.invalidURL.code && conflict?.data?["parameter"] == "Payment_Number")
        guard case .array(let entries)? = try await client.call("journal.list")["entries"] else {
            Issue.record("no list")
            return
        }
        #expect(entries.count == 1)
    }

    @Test("the same callback handled twice: one entry, one payment at the backend")
    func sameCallbackTwice() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        let url = try await client.call("journal.pay", ["type": "creditCard", "amount": "10000"])["url"]
        let callback = try await client.call("sandbox.journal.completePayment", ["url": url ?? .null])["callbackURL"] ?? .null
        let first = try await client.call("journal.handleCallback", ["url": callback])
        let second = try await client.call("journal.handleCallback", ["url": callback])
        #expect(first == second && first["delivery"]?["status"] == "delivered")
        guard case .array(let entries)? = try await client.call("journal.list")["entries"] else {
            Issue.record("no list")
            return
        }
        #expect(entries == [first])
        #expect(try await fixture.backend!.paths() == ["/payments/", "/journals/"])
        let stored = try await fixture.backend!.stored()
        #expect(stored.payments.count == 1 && stored.journals.count == 1)
    }

    @Test("two copies of one callback at once, on two connections: one entry, both answered with it")
    func sameCallbackAtOnce() async throws {
        let fixture = try await JournalFixture(backend: false)
        let first = fixture.connect()
        let second = fixture.connect()
        let callback = Self.callback + "&Payment_Result=approved&Payment_Number=123456789012"
        let request = #"{"jsonrpc":"2.0","id":"cb","method":"journal.handleCallback","params":{"url":"\#(callback)"}}"#
        first.send(request)
        second.send(request)
        let answers = [await first.response(id: "cb"), await second.response(id: "cb")].map { $0?["result"] }
        #expect(answers[0] != nil && answers[0] == answers[1])
        guard case .array(let entries)? = try await first.call("journal.list")["entries"] else {
            Issue.record("no list")
            return
        }
        #expect(entries.count == 1 && entries.first?["delivery"]?["attempts"] == 2)
    }

    @Test("a declined callback is journaled and delivered too; without Payment_Number each callback is an entry")
    func declinedAndUnnumbered() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let declined = try await client.cardPayment(result: "declined")
        #expect(declined["result"] == "declined" && declined["delivery"]?["status"] == "delivered")
        let unnumbered = Self.callback + "&Payment_Result=cancelled"
        let first = try await client.call("journal.handleCallback", ["url": .string(unnumbered)])
        let second = try await client.call("journal.handleCallback", ["url": .string(unnumbered)])
        #expect(first["entryId"] != second["entryId"])
    }
}
