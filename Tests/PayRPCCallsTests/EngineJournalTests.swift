import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing

@testable import PayRPCCalls

/// What the engine records, through an in-memory connection: calls answered inline, batch members,
/// notifications (no request id), lines that are not requests, the client of `rpc.hello`; the
/// journal's own calls are not recorded; the bound drops the oldest and counts them.
@Suite struct EngineJournalTests {
    /// An engine with the built-ins and the journal's methods, over a journal of `maxEntries`.
    static func harness(maxEntries: Int = 1000) throws -> (EngineHarness, CallJournal) {
        var settings = CallJournalSettings()
        settings.maxEntries = maxEntries
        let sandbox = SandboxControls()
        let journal = CallJournal(settings: settings, sandbox: sandbox, shared: nil, logger: Logger(label: "test"))
        let reference = RouterBox()
        let harness = try EngineHarness(
            services: [CallJournalService(journal: journal, router: { reference.router })], sandbox: sandbox,
            connections: ConnectionDirectory(acrossGateways: false, calls: journal))
        reference.router = harness.engine.router
        journal.attach(harness.engine.router)
        return (harness, journal)
    }

    @Test func everyKindOfAnswerIsRecordedAndTheJournalsOwnCallsAreNot() async throws {
        let (harness, _) = try Self.harness()
        let app = harness.connect()
        _ = try await app.call("rpc.hello", ["client": "checkout-app/2.1"])
        _ = try await app.call("rpc.health")
        app.send(
            #"[{"jsonrpc":"2.0","id":"b1","method":"rpc.health"},{"jsonrpc":"2.0","method":"rpc.health"},{"jsonrpc":"2.0","id":"b2","method":"rpc.nope"}]"#
        )
        _ = await app.nextMessage()
        app.send("not json")
        _ = await app.nextMessage()
        let page = try await app.call("sandbox.calls.list")
        _ = try await app.call("sandbox.calls.count", ["match": ["method": "rpc.health"]])
        let entries = try #require(page["entries"].flatMap { if case .array(let items) = $0 { items } else { nil } })
        #expect(entries.map { $0["method"] } == ["rpc.hello", "rpc.health", "rpc.health", "rpc.health", "rpc.nope", nil])
        #expect(entries[0]["client"] == "checkout-app/2.1")
        #expect(entries[1]["result"]?["status"] == "SERVING")
        #expect(entries[2]["requestId"] == "b1")
        #expect(entries[3]["requestId"] == nil)
        #expect(entries[4]["error"]?["code"] == -32601)
        #expect(entries[5]["error"]?["code"] == -32700)
        #expect(entries[5]["cut"] == ["request"])
        #expect(entries.allSatisfy { $0["transport"] == "memory" && $0["connection"] != nil && $0["durationMs"] != nil })
        // Read again: the list and the count above were not journalled.
        #expect(try await app.call("sandbox.calls.list")["total"] == 6)
    }

    @Test func theBoundKeepsTheNewestAndSaysHowManyWentAndClearTouchesOneProfile() async throws {
        let (harness, _) = try Self.harness(maxEntries: 3)
        let app = harness.connect(), other = harness.connect()
        _ = try await other.call("rpc.hello", ["profile": "other"])
        for _ in 0..<5 { _ = try await app.call("rpc.health") }
        let page = try await app.call("sandbox.calls.list", ["limit": 2])
        #expect(page["total"] == 3)
        #expect(page["dropped"] == 2)
        #expect(page["more"] == true)
        let next = try #require(page["next"])
        let rest = try await app.call("sandbox.calls.list", ["cursor": next])
        #expect(rest.value(at: "/entries/0/id") != page.value(at: "/entries/1/id"))
        #expect(rest["more"] == false)
        #expect(try await app.call("sandbox.calls.clear")["cleared"] == 3)
        #expect(try await other.call("sandbox.calls.list")["total"] == 1)
    }

    @Test func aWaitAnswersWhenAnotherConnectionsCallArrives() async throws {
        let (harness, _) = try Self.harness()
        let tester = harness.connect(), app = harness.connect()
        tester.send(
            #"{"jsonrpc":"2.0","id":"w","method":"sandbox.calls.wait","params":{"match":{"method":"rpc.health"},"count":2,"timeoutMs":120000}}"#
        )
        _ = try await app.call("rpc.health")
        _ = try await app.call("rpc.health")
        let waited = try #require(await tester.response(id: "w"))
        #expect(waited.value(at: "/result/entries/1/method") == "rpc.health")
        tester.send(
            #"{"jsonrpc":"2.0","id":"t","method":"sandbox.calls.wait","params":{"match":{"method":"rpc.hello"},"timeoutMs":10}}"#)
        let timedOut = try #require(await tester.response(id: "t"))
        #expect(timedOut.value(at: "/error/code") == -32011)
        #expect(timedOut.value(at: "/error/data/matched") == 0)
    }
}

/// The router, once built (the journal's methods check matches against it).
final class RouterBox: @unchecked Sendable {
    var router: Router?
}
