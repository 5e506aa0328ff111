import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// The built-in sandbox Web API (no backend URL configured), driven through JSON-RPC: its default
/// answers, and each answer a tester can set with `sandbox.journal.setNextAnswers`.
@Suite("journal sandbox Web API")
struct SandboxWebAPITests {
    @Test(
        "bad answers first: each refused with the pointer of the member that does not fit",
        arguments: [
            (#"[{"outcome":"accept","httpStatus":500}]"#, "/answers/0/httpStatus"),
            (#"[{"outcome":"accept","message":"no"}]"#, "/answers/0/message"),
            (#"[{"outcome":"serverError","httpStatus":204}]"#, "/answers/0/httpStatus"),
            (#"[{"outcome":"serverError","body":{}}]"#, "/answers/0/body"),
            (#"[{"outcome":"accept"},{"outcome":"hang","message":"x"}]"#, "/answers/1/message"),
            (#"[{"outcome":"networkFailure","httpStatus":500}]"#, "/answers/0/httpStatus"),
            (#"[{"outcome":"explode"}]"#, "/answers/0/outcome"),
            (#"[{"outcome":"accept","httpStatus":600}]"#, "/answers/0/httpStatus"),
            (#"[{}]"#, "/answers/0"),
        ])
    func badAnswers(_ answers: String, _ pointer: String) async throws {
        let client = try await JournalFixture(backend: false).connect()
        let error = await client.error("sandbox.journal.setNextAnswers", ["answers": try JSONValue(parsing: answers)])
        #expect(error?.code == .invalidParams)
        let pointers =
            error?.data?["violations"].flatMap { violations -> [String]? in
                guard case .array(let list) = violations else { return nil }
                return list.compactMap { $0["pointer"]?.stringValue }
            } ?? []
        #expect(pointers.contains(pointer), "\(answers): \(error?.data?.jsonText ?? "no error")")
        let many = JSONValue.array(Array(repeating: ["outcome": "accept"], count: 101))
        #expect(await client.error("sandbox.journal.setNextAnswers", ["answers": many])?.code == .invalidParams)
    }

    @Test("with no answer set it accepts: cash and card delivered at once, payment ids from the seeded stream")
    func acceptsByDefault() async throws {
        let fixture = try await JournalFixture(backend: false)
        let client = fixture.connect()
        let cash = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "500"])["entry"])
        #expect(cash["delivery"]?["status"] == "delivered" && cash["delivery"]?["attempts"] == 1)
        let card = try await client.cardPayment()
        #expect(card["delivery"]?["status"] == "delivered")
        #expect(card["delivery"]?["paymentPosted"] == true && card["delivery"]?["journalPosted"] == true)
        #expect(card["delivery"]?["attempts"] == 2)
        let id = try #require(card["delivery"]?["paymentId"]?.stringValue)
        #expect(id.hasPrefix("pay_") && id.count == 20)
        #expect(cash["delivery"]?["paymentId"] != card["delivery"]?["paymentId"])
        #expect(try await client.call("journal.sync") == ["attempted": 0, "delivered": 0, "waiting": 0])
    }

    @Test("a server error with its status and message: serverError, journal.syncFailed, delivered by the next sync")
    func serverError() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let set = try await client.call(
            "sandbox.journal.setNextAnswers",
            [
                "answers": [
                    ["outcome": "serverError", "httpStatus": 503, "message": "database is read-only"]
                ]
            ])
        #expect(set["nextAnswers"] == [["outcome": "serverError", "httpStatus": 503, "message": "database is read-only"]])
        let entry = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"])
        #expect(entry["delivery"]?["status"] == "serverError")
        #expect(entry["delivery"]?["lastError"] == "/payments/: HTTP 503: database is read-only")
        let notification = await client.notification("journal.syncFailed")
        #expect(
            notification == [
                "entryId": entry["entryId"] ?? .null, "endpoint": "/payments/", "httpStatus": 503,
                "message": "database is read-only",
            ])
        #expect(try await client.call("journal.sync") == ["attempted": 1, "delivered": 1, "waiting": 0])
    }

    @Test("a server error on /journals/: /payments/ is not posted again")
    func serverErrorOnJournals() async throws {
        let client = try await JournalFixture(backend: false).connect()
        _ = try await client.call(
            "sandbox.journal.setNextAnswers", ["answers": [["outcome": "accept"], ["outcome": "serverError"]]])
        let entry = try await client.cardPayment()
        #expect(entry["delivery"]?["status"] == "serverError" && entry["delivery"]?["paymentPosted"] == true)
        #expect(entry["delivery"]?["journalPosted"] == false && entry["delivery"]?["attempts"] == 2)
        #expect(await client.notification("journal.syncFailed")?["endpoint"] == "/journals/")
        _ = try await client.call("journal.sync")
        let stored = try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null])
        #expect(stored["delivery"]?["status"] == "delivered" && stored["delivery"]?["attempts"] == 3)
        #expect(stored["delivery"]?["paymentId"] == entry["delivery"]?["paymentId"])
    }

    @Test("network failures: three retries deliver; a fourth failure leaves the entry waiting for the next sync")
    func networkFailures() async throws {
        let client = try await JournalFixture(backend: false).connect()
        let failure: JSONValue = ["outcome": "networkFailure"]
        _ = try await client.call("sandbox.journal.setNextAnswers", ["answers": .array(Array(repeating: failure, count: 3))])
        let retried = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"])
        #expect(retried["delivery"]?["status"] == "delivered" && retried["delivery"]?["attempts"] == 4)
        _ = try await client.call("sandbox.journal.setNextAnswers", ["answers": .array(Array(repeating: failure, count: 4))])
        let waiting = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "200"])["entry"])
        #expect(waiting["delivery"]?["status"] == "waiting" && waiting["delivery"]?["attempts"] == 4)
        #expect(waiting["delivery"]?["lastError"]?.stringValue?.contains("network error") == true)
        #expect(try await client.call("journal.sync") == ["attempted": 1, "delivered": 1, "waiting": 0])
    }

    @Test("a hang lasts the request's timeout; other calls answer meanwhile, and the retry delivers")
    func hang() async throws {
        let fixture = try await JournalFixture(backend: false, timeout: 1)
        let client = fixture.connect()
        _ = try await client.call("sandbox.journal.setNextAnswers", ["answers": [["outcome": "hang"]]])
        client.send(#"{"jsonrpc":"2.0","id":"pay","method":"journal.pay","params":{"type":"cash","amount":"100"}}"#)
        #expect(try await client.call("rpc.health")["status"] == "SERVING")
        let paid = await client.response(id: "pay")
        let delivery = paid?["result"]?["entry"]?["delivery"]
        #expect(delivery?["status"] == "delivered" && delivery?["attempts"] == 2)
    }

    @Test("a 2xx of the tester's own: its status and body, the id where the body has it")
    func acceptWithBody() async throws {
        let client = try await JournalFixture(backend: false).connect()
        _ = try await client.call(
            "sandbox.journal.setNextAnswers",
            [
                "answers": [
                    ["outcome": "accept", "httpStatus": 201, "body": ["payment_id": 42]],
                    ["outcome": "accept", "httpStatus": 204],
                ]
            ])
        let entry = try await client.cardPayment()
        #expect(entry["delivery"]?["status"] == "delivered" && entry["delivery"]?["paymentId"] == "42")
    }

    @Test("answers belong to the profile, are taken in order by any of its connections, and [] forgets them")
    func answersPerProfile() async throws {
        let fixture = try await JournalFixture(backend: false)
        let first = fixture.connect()
        let second = fixture.connect()
        let other = fixture.connect()
        _ = try await other.call("rpc.hello", ["profile": "other"])
        _ = try await first.call(
            "sandbox.journal.setNextAnswers", ["answers": [["outcome": "serverError"], ["outcome": "serverError"]]])
        #expect(
            try await other.call("journal.pay", ["type": "cash", "amount": "1"])["entry"]?["delivery"]?["status"] == "delivered")
        #expect(
            try await second.call("journal.pay", ["type": "cash", "amount": "1"])["entry"]?["delivery"]?["status"]
                == "serverError")
        #expect(try await first.call("sandbox.journal.setNextAnswers", ["answers": []]) == ["nextAnswers": []])
        #expect(
            try await second.call("journal.pay", ["type": "cash", "amount": "2"])["entry"]?["delivery"]?["status"] == "delivered")
    }

    @Test("one truth: what pay and handleCallback answer is what journal.get and journal.list show")
    func oneTruth() async throws {
        let client = try await JournalFixture(backend: false).connect()
        _ = try await client.call(
            "sandbox.journal.setNextAnswers", ["answers": [["outcome": "accept"], ["outcome": "serverError"]]])
        let failed = try await client.cardPayment()
        let cash = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "300"])["entry"])
        let card = try await client.cardPayment()
        #expect(failed["delivery"]?["status"] == "serverError")
        guard case .array(let listed)? = try await client.call("journal.list")["entries"] else {
            Issue.record("no list")
            return
        }
        #expect(Set(listed) == Set([failed, cash, card]))
        for entry in [failed, cash, card] {
            #expect(try await client.call("journal.get", ["entryId": entry["entryId"] ?? .null]) == entry)
        }
    }
}
