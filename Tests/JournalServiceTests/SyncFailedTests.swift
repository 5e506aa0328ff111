import Foundation
import JournalService
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// Who hears `journal.syncFailed`: every connection of the profile, including one that only said
/// `rpc.hello`; and, when the resend at start-up fails before any client came, the profile's first
/// connection, once.
@Suite("journal.syncFailed")
struct SyncFailedTests {
    static let failing: JSONValue = ["answers": [["outcome": "serverError", "httpStatus": 503, "message": "maintenance"]]]

    @Test("every connection of the profile hears it, also one that never called the journal; other profiles do not")
    func everyConnectionOfTheProfile() async throws {
        let fixture = try await JournalFixture(backend: false)
        let payer = fixture.connect()
        let dashboard = fixture.connect()
        let listener = fixture.connect()
        let stranger = fixture.connect()
        _ = try await dashboard.call("rpc.hello", ["profile": "shop"])
        _ = try await dashboard.call("journal.list")
        _ = try await listener.call("rpc.hello", ["profile": "shop"])
        _ = try await payer.call("rpc.hello", ["profile": "shop"])
        _ = try await stranger.call("rpc.hello", ["profile": "elsewhere"])
        _ = try await payer.call("sandbox.journal.setNextAnswers", Self.failing)
        let entry = try #require(try await payer.call("journal.pay", ["type": "cash", "amount": "100"])["entry"])
        let expected: JSONValue = [
            "entryId": entry["entryId"] ?? .null, "endpoint": "/payments/", "httpStatus": 503,
            "message": "maintenance",
        ]
        for connection in [payer, dashboard, listener] {
            #expect(await connection.notification("journal.syncFailed") == expected)
        }
        // Notifications are sent before pay answers: one to the stranger would come before this answer.
        stranger.send(#"{"jsonrpc":"2.0","id":"h","method":"rpc.health"}"#)
        #expect(await stranger.nextMessage()?["id"] == "h")
    }

    @Test(
        "the resend at start-up takes the stored answers and fails with no client: the profile's first connection hears it, once")
    func heldForTheFirstConnection() async throws {
        let fixture = try await JournalFixture(backend: false)
        let client = fixture.connect()
        _ = try await client.call(
            "sandbox.journal.setNextAnswers",
            [
                "answers": [
                    ["outcome": "serverError", "message": "first"], ["outcome": "serverError", "message": "at start-up"],
                ]
            ])
        let entry = try #require(try await client.call("journal.pay", ["type": "cash", "amount": "100"])["entry"])
        #expect(try await fixture.restartAndResend())
        let first = fixture.connect()
        let pushed = await first.notification("journal.syncFailed")
        #expect(
            pushed == [
                "entryId": entry["entryId"] ?? .null, "endpoint": "/payments/", "httpStatus": 500, "message": "at start-up",
            ])
        let second = fixture.connect()
        #expect(try await second.call("rpc.health")["status"] == "SERVING")
        #expect(second.unreadLines.isEmpty)
        #expect(try await first.call("rpc.health")["status"] == "SERVING")
        #expect(first.unreadLines.isEmpty)
        let stored = try await first.call("journal.get", ["entryId": entry["entryId"] ?? .null])
        #expect(stored["delivery"]?["lastError"] == "/payments/: HTTP 500: at start-up" && stored["delivery"]?["attempts"] == 2)
    }

    @Test("held for its own profile: a connection of another profile does not take it; rpc.hello with the profile does")
    func heldPerProfile() async throws {
        let fixture = try await JournalFixture(backend: false)
        let client = fixture.connect()
        _ = try await client.call("rpc.hello", ["profile": "shop"])
        _ = try await client.call(
            "sandbox.journal.setNextAnswers", ["answers": [["outcome": "serverError"], ["outcome": "serverError"]]])
        _ = try await client.call("journal.pay", ["type": "cash", "amount": "100"])
        #expect(try await fixture.restartAndResend())
        let later = fixture.connect()
        #expect(try await later.call("rpc.health")["status"] == "SERVING")
        #expect(later.unreadLines.isEmpty)
        _ = try await later.call("rpc.hello", ["profile": "shop"])
        #expect(await later.notification("journal.syncFailed")?["httpStatus"] == 500)
    }
}
