import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// Delivery to a real local HTTP server: each payment exactly once, across failures and restarts.
@Suite("journal delivery")
struct DeliveryTests {
    static let entryCount = Int(ProcessInfo.processInfo.environment["JOURNAL_ENTRIES"] ?? "1000") ?? 1000

    @Test("cash: saved, posted to /payments/ only, and answered delivered")
    func cash() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        let entry = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "500"])["entry"])
        #expect(entry["type"] == "cash" && entry["amount"] == "500")
        #expect(entry["delivery"]?["status"] == "delivered")
        let id = try #require(entry["entryId"])
        let stored = try await client.call("journal.get", ["entryId": id])
        #expect(stored == entry)
        let requests = try await fixture.backend!.requests()
        #expect(requests.map { $0["path"] as? String } == ["/payments/"])
        #expect((requests.first?["body"] as? [String: Any])?["Amount"] as? String == "500")
    }

    @Test("card and account: /payments/ with the callback's parameters, then /journals/ with the payment id")
    func cardAndAccount() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        let card = try await client.cardPayment()
        #expect(card["parameters"]?["Payment_Service"] == "010" && card["amount"] == "10000")
        let callback = try await client.call("sandbox.journal.completePayment", ["url": .string(DocumentExamples.accountOut)])
        let account = try await client.call("journal.handleCallback", ["url": callback["callbackURL"] ?? .null])
        _ = try await client.call("journal.sync")
        for entry in [card, account] {
            let stored = try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null])
            #expect(stored["delivery"]?["status"] == "delivered")
            #expect(stored["delivery"]?["paymentId"]?.stringValue?.hasPrefix("pay_") == true)
        }
        let requests = try await fixture.backend!.requests()
        #expect(requests.filter { $0["path"] as? String == "/journals/" }.count == 2)
        let journals = requests.filter { $0["path"] as? String == "/journals/" }.compactMap {
            ($0["body"] as? [String: Any])?["payment_id"] as? String
        }
        #expect(Set(journals).count == 2 && journals.allSatisfy { $0.hasPrefix("pay_") })
        let firstPayments = requests.first { $0["path"] as? String == "/payments/" }?["body"] as? [String: Any]
        #expect(firstPayments?["Return_Type"] as? String == "4")
    }

    @Test("three network failures, then success: the same idempotency key every time")
    func threeNetworkFailures() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["fail": 3, "mode": "drop"])
        let entry = try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"]
        _ = try await client.call("journal.sync")
        let stored = try await client.call("journal.get", ["entryId": entry?["entryId"] ?? .null])
        #expect(stored["delivery"]?["status"] == "delivered")
        #expect(stored["delivery"]?["attempts"] == 4)
        let keys = try await fixture.backend!.requests().compactMap { $0["key"] as? String }
        #expect(keys.count == 4 && Set(keys).count == 1)
        #expect(try await fixture.backend!.stored().payments.count == 1)
    }

    @Test("more network failures than retries: the entry waits, and the next sync delivers it")
    func networkFailuresBeyondRetries() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["fail": 6, "mode": "drop"])
        let waiting = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"])
        #expect(waiting["delivery"]?["status"] == "waiting" && waiting["delivery"]?["attempts"] == 4)
        #expect(waiting["delivery"]?["lastError"]?.stringValue?.contains("network") == true)
        #expect(try await client.call("journal.get", ["entryId": waiting["entryId"] ?? .null]) == waiting)
        #expect(try await client.call("journal.sync") == ["attempted": 1, "delivered": 1, "waiting": 0])
        #expect(try await client.call("journal.sync")["attempted"] == 0)
        #expect(try await fixture.backend!.stored().payments.count == 1)
    }

    @Test("a server error: journal.syncFailed with the server's message; after a restart it is delivered")
    func serverErrorThenRestart() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["fail": 1, "mode": "500", "message": "database is read-only"])
        let entry = try await client.cardPayment()
        let notification = await client.connection.notification("journal.syncFailed")
        #expect(notification?["message"] == "database is read-only")
        #expect(notification?["httpStatus"] == 500)
        #expect(entry["delivery"]?["status"] == "serverError")
        #expect(try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null]) == entry)
        #expect(try await fixture.restartAndResend())
        let again = fixture.connect()
        #expect(try await again.call("journal.get", ["entryId": entry["entryId"] ?? .null])["delivery"]?["status"] == "delivered")
        let stored = try await fixture.backend!.stored()
        #expect(stored.payments.count == 1 && stored.journals.count == 1)
    }

    @Test("a restart with waiting entries sends them by itself, with no journal.sync")
    func restartSendsWaitingEntries() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        try await fixture.backend!.control(["fail": 100, "mode": "drop"])
        var ids: [JSONValue] = []
        for amount in ["100", "200", "300"] {
            ids.append(
                try #require(
                    try await client.call("journal.pay", ["type": "cash", "amount": .string(amount)])["entry"]?["entryId"]))
        }
        try await fixture.backend!.control(["fail": 0])
        // Delivery at start runs in the background: wait for its task to end (with a deadline).
        #expect(try await fixture.restartAndResend())
        let again = fixture.connect()
        var delivered = 0
        for id in ids where try await again.call("journal.get", ["entryId": id])["delivery"]?["status"] == "delivered" {
            delivered += 1
        }
        #expect(delivered == ids.count)
        #expect(try await fixture.backend!.stored().payments.count == ids.count)
    }

    @Test(
        "no backend and no sandbox Web API (--no-sandbox): entries wait and say so at once; a profile's own backend delivers them"
    )
    func noBackend() async throws {
        let fixture = try await JournalFixture(backend: false, sandboxWebAPI: false)
        let client = fixture.connect()
        let entry = try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"]
        #expect(entry?["delivery"]?["status"] == "noBackend")
        #expect(try await client.call("journal.get", ["entryId": entry?["entryId"] ?? .null]) == entry)
        let backend = try await JournalBackend()
        _ = try await client.call("journal.configure", ["backendURL": .string(backend.baseURL.absoluteString)])
        _ = try await client.call("journal.sync")
        #expect(
            try await client.call("journal.get", ["entryId": entry?["entryId"] ?? .null])["delivery"]?["status"] == "delivered")
        #expect(await client.error("journal.configure", ["backendURL": "not a url"])?.code == .invalidParams)
    }

    @Test("a hanging backend times out while other calls keep answering; the retry delivers")
    func hangingBackend() async throws {
        let fixture = try await JournalFixture(timeout: 3)  // the hang ends with it; the retry must fit too
        let client = fixture.connect()
        try await fixture.backend!.control(["fail": 1, "mode": "hang"])
        client.send(#"{"jsonrpc":"2.0","id":"pay","method":"journal.pay","params":{"type":"cash","amount":"100"}}"#)
        // The backend has the POST (it hangs on it): the pay call is waiting for its delivery.
        #expect(try await fixture.backend!.requests(atLeast: 1).count == 1)
        #expect(try await client.call("rpc.health")["status"] == "SERVING")
        guard case .array(let listed)? = try await client.call("journal.list")["entries"] else {
            Issue.record("no list")
            return
        }
        #expect(listed.count == 1 && listed.first?["delivery"]?["status"] == "waiting")
        let paid = await client.response(id: "pay")
        #expect(paid?["result"]?["entry"]?["delivery"]?["status"] == "delivered")
        #expect(paid?["result"]?["entry"]?["delivery"]?["attempts"] == 2)
        #expect(try await fixture.backend!.stored().payments.count == 1)
    }

    @Test("list: newest first, paged, filtered by type and status")
    func list() async throws {
        let fixture = try await JournalFixture(backend: false)
        let client = fixture.connect()
        var ids: [JSONValue] = []
        for amount in ["1", "2", "3"] {
            ids.append(
                try #require(
                    try await client.call("journal.pay", ["type": "cash", "amount": .string(amount)])["entry"]?["entryId"]))
            try fixture.sandbox.advance(profile: "default", by: 1)
        }
        let page = try await client.call("journal.list", ["limit": 2])
        guard case .array(let entries)? = page["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(entries.map { $0["entryId"] } == [ids[2], ids[1]])
        let rest = try await client.call("journal.list", ["limit": 2, "cursor": page["nextCursor"] ?? .null])
        guard case .array(let last)? = rest["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(last.map { $0["entryId"] } == [ids[0]] && rest["nextCursor"] == nil)
        guard case .array(let cards)? = try await client.call("journal.list", ["type": "creditCard"])["entries"] else { return }
        #expect(cards.isEmpty)
        #expect(
            await client.error("journal.get", ["entryId": "je_0000000000000000"])?.code == JournalErrorKind.entryNotFound.code)
    }

    @Test("1,000 entries with the backend failing one POST in five: each delivered exactly once")
    func thousandEntries() async throws {
        let fixture = try await JournalFixture()
        let client = fixture.connect()
        client.connection.timeout = .seconds(300)
        try await fixture.backend!.control(["failEvery": 5, "mode": "drop"])
        for index in 0..<Self.entryCount {
            _ = try await client.call("journal.pay", ["type": "cash", "amount": .string(String(index + 1))])
        }
        var result = try await client.call("journal.sync")
        for _ in 0..<5 where result["waiting"] != 0 { result = try await client.call("journal.sync") }
        let stored = try await fixture.backend!.stored()
        #expect(stored.payments.count == Self.entryCount)
        let delivered = try await client.call("journal.list", ["status": "delivered", "limit": 500])
        guard case .array(let page)? = delivered["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(page.count == min(500, Self.entryCount))
        let amounts = Set(
            stored.payments.values.compactMap { (($0 as? [String: Any])?["body"] as? [String: Any])?["Amount"] as? String })
        #expect(amounts.count == Self.entryCount)
    }
}
