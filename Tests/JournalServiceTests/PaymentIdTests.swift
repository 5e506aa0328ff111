import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// A `/payments/` 2xx without a payment id where the profile looks (the document's mock answers
/// 200 without format checks), against the test backend (a real HTTP server) and the sandbox Web API.
@Suite("journal payment id")
struct PaymentIdTests {
    @Test("bad pointers are refused", arguments: ["data/id", "/a~2b", "/~", String(repeating: "/a", count: 101)])
    func badPointers(_ pointer: String) async throws {
        let client = try await JournalFixture(backend: false).connect()
        #expect(await client.error("journal.configure", ["paymentIdPointer": .string(pointer)])?.code == .invalidParams)
    }

    @Test("cash needs no id: any 2xx delivers it, and no /journals/ POST is made")
    func cashWithoutId() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["paymentAnswer": [String: Any]()])
        let entry = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "700"])["entry"])
        #expect(entry["delivery"]?["status"] == "delivered" && entry["delivery"]?["paymentId"] == nil)
        #expect(entry["delivery"]?["paymentAnswer"] == nil)
        #expect(try await fixture.backend!.paths() == ["/payments/"])
    }

    @Test("card: accepted and recorded, paymentIdMissing with the answer kept, journal.syncFailed; never posted again")
    func cardWithoutId() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["paymentAnswer": ["status": "ok"]])
        let entry = try await client.cardPayment()
        let delivery = try #require(entry["delivery"])
        #expect(
            delivery["status"] == "paymentIdMissing" && delivery["paymentPosted"] == true && delivery["journalPosted"] == false)
        #expect(delivery["paymentAnswer"] == ["status": "ok"] && delivery["attempts"] == 1)
        #expect(delivery["lastError"] == "/payments/: the answer carried no payment id at /id, /payment_id or /paymentId")
        let notification = await client.notification("journal.syncFailed")
        #expect(notification?["httpStatus"] == 200 && notification?["endpoint"] == "/payments/")
        #expect(notification?["message"] == "the answer carried no payment id at /id, /payment_id or /paymentId")
        #expect(try await client.call("journal.sync") == ["attempted": 1, "delivered": 0, "waiting": 1])
        #expect(try await fixture.restartAndResend())
        let again = fixture.connect()
        #expect(try await again.call("journal.get", ["entryId": entry["entryId"] ?? .null]) == entry)
        #expect(try await fixture.backend!.paths() == ["/payments/"])
    }

    @Test("a configured pointer finds the id where the backend puts it")
    func configuredPointer() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["paymentAnswer": ["data": ["payment": [["number": 42]]]]])
        _ = try await client.call("journal.configure", ["paymentIdPointer": "/data/payment/0/number"])
        let entry = try await client.cardPayment()
        #expect(entry["delivery"]?["status"] == "delivered" && entry["delivery"]?["paymentId"] == "42")
        let journals = try await fixture.backend!.requests().filter { $0["path"] as? String == "/journals/" }
        #expect((journals.first?["body"] as? [String: Any])?["payment_id"] as? String == "42")
    }

    @Test("a pointer corrected after the fact: the kept answer is read again, /payments/ is not posted again")
    func correctedPointer() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["paymentAnswer": ["data": ["id": "p-9"]]])
        let entry = try await client.cardPayment()
        #expect(entry["delivery"]?["status"] == "paymentIdMissing")
        _ = try await client.call("journal.configure", ["paymentIdPointer": "/data/id"])
        #expect(try await client.call("journal.sync") == ["attempted": 1, "delivered": 1, "waiting": 0])
        let stored = try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null])
        #expect(stored["delivery"]?["paymentId"] == "p-9" && stored["delivery"]?["paymentAnswer"] == nil)
        #expect(try await fixture.backend!.paths() == ["/payments/", "/journals/"])
        // configure replaces every setting: the pointer is gone again.
        _ = try await client.call("journal.configure", [:])
        #expect(try await client.cardPayment()["delivery"]?["status"] == "paymentIdMissing")
    }

    @Test("the sandbox Web API: a 2xx without an id, then the same rules")
    func sandboxWithoutId() async throws {
        let client = try await JournalFixture(backend: false).connect()
        _ = try await client.call("sandbox.journal.setNextAnswers", ["answers": [["outcome": "accept", "body": [:]]]])
        let entry = try await client.cardPayment()
        #expect(entry["delivery"]?["status"] == "paymentIdMissing" && entry["delivery"]?["paymentAnswer"] == [:])
        #expect(await client.notification("journal.syncFailed")?["httpStatus"] == 200)
        _ = try await client.call("journal.sync")
        #expect(try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null])["delivery"]?["attempts"] == 1)
    }
}
