import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The journal's network retries on two gateways of one PostgreSQL database, against the test
/// backend (a real HTTP server that fails the POSTs it is told to and counts every request): a
/// retry whose gateway was SIGKILLed while making it is made once by the other gateway (delivered,
/// or its server error told once), and with both alive each retry is made once, by the gateway
/// that began the delivery, even when the other is asked to `journal.sync` meanwhile.
@Suite(.serialized) struct SharedRetryTests {
    /// Each request the backend saw: its path, its idempotency key, whether it was failed.
    static func requests(_ backend: JournalJourneyTests.Backend, atLeast count: Int) async throws -> [[String: Any]] {
        try await backend.get("/_requests?atLeast=\(count)") as? [[String: Any]] ?? []
    }

    /// The first POST is dropped (a network failure); the first retry hangs, and its gateway is
    /// killed while it waits for the answer: B makes that retry once and delivers.
    @Test func aRetryWhoseGatewayDiedIsMadeOnceByAnother() async throws {
        try await SharedDeliveryTests.journalTryTakenOver(["drop", "hang"])
    }

    /// The retry B takes over meets a server error: B records it and the profile's connection on
    /// B hears `journal.syncFailed` once, as it would from the gateway that began the delivery.
    @Test func aServerErrorOfTheRetryTakenOverIsToldOnce() async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failModes": ["drop", "hang", "500"], "message": "maintenance"])
        let (gateways, addresses) = try await CrossInstancePushTests.twoGateways(
            ["--journal-backend", backend.url], firstOnly: SharedDeliveryTests.patientGateway)
        let (a, b) = (gateways[0], gateways[1])
        let till = try await CrossInstancePushTests.peer(addresses[0], profile: "shop")
        let watcher = try await CrossInstancePushTests.peer(addresses[1], profile: "shop")
        till.socket.sendLine(#"{"jsonrpc":"2.0","id":"pay","method":"journal.pay","params":{"type":"cash","amount":"100"}}"#)
        #expect(try await Self.requests(backend, atLeast: 2).count == 2)
        a.signal(SIGKILL)
        #expect(await a.waitForExit() == SIGKILL)

        let failed = await watcher.notification("journal.syncFailed", timeout: 60)
        #expect(
            failed?["endpoint"] == "/payments/" && failed?["httpStatus"] == 500 && failed?["message"] == "maintenance",
            "\(String(describing: failed))")
        let entry = await watcher.result("journal.get", ["entryId": failed?["entryId"] ?? .null])
        #expect(
            entry?["delivery"]?["status"] == "serverError" && entry?["delivery"]?["attempts"] == 2, "\(String(describing: entry))"
        )
        #expect(try await Self.requests(backend, atLeast: 0).count == 3)
        #expect(await CrossInstancePushTests.heardNothingMore(watcher), "\(watcher.notifications)")
        b.signal(SIGTERM)
        #expect(await b.waitForExit() == 0)
    }

    /// Both gateways alive: A makes its first try and its two retries and delivers; B, which heard
    /// of each try armed, hears each made by A (its wait ends at once) and makes none.
    @Test func withBothAliveEachRetryIsMadeOnce() async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failModes": ["drop", "drop"]])
        let (gateways, addresses) = try await CrossInstancePushTests.twoGateways([
            "--journal-backend", backend.url, "--log-level", "debug",
        ])
        let b = gateways[1]
        let till = try await CrossInstancePushTests.peer(addresses[0], profile: "shop")
        #expect(await till.call("journal.pay", ["type": "cash"])?["error"]?["code"] == -33202)

        let entry = await till.result("journal.pay", ["type": "cash", "amount": "100"])?["entry"]
        #expect(
            entry?["delivery"]?["status"] == "delivered" && entry?["delivery"]?["attempts"] == 3, "\(String(describing: entry))")
        for _ in 0..<3 {
            #expect(await b.waitForLog(containing: "a delivery try armed by another gateway was made there"))
        }
        let all = try await Self.requests(backend, atLeast: 0)
        #expect(all.count == 3 && all.filter { $0["failed"] as? Bool == false }.count == 1, "\(all)")
        await CrossInstancePushTests.stop(gateways)
    }

    /// A `journal.sync` through B while A's first POST of the entry hangs leaves the entry to A,
    /// whose delivery run B finds claimed: the backend sees A's try and A's retry, nothing from B.
    @Test func aSyncOnAnotherGatewayLeavesARunningDeliveryToIt() async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failModes": ["hang"]])
        let (gateways, addresses) = try await CrossInstancePushTests.twoGateways(
            ["--journal-backend", backend.url, "--log-level", "debug"], firstOnly: ["--web-api-timeout", "5"])
        let b = gateways[1]
        let till = try await CrossInstancePushTests.peer(addresses[0], profile: "shop")
        let other = try await CrossInstancePushTests.peer(addresses[1], profile: "shop")
        till.socket.sendLine(#"{"jsonrpc":"2.0","id":"pay","method":"journal.pay","params":{"type":"cash","amount":"100"}}"#)
        #expect(try await Self.requests(backend, atLeast: 1).count == 1)
        let synced = await other.result("journal.sync")
        #expect(synced?["waiting"] == 1, "\(String(describing: synced))")
        #expect(await b.waitForLog(containing: "an item another gateway is delivering is left to it"))
        var answer: JSONValue?
        while answer == nil, let message = await till.socket.nextMessage(timeout: 30) {
            if message["id"] == "pay" { answer = message }
        }
        #expect(
            answer?["result"]?["entry"]?["delivery"]?["status"] == "delivered"
                && answer?["result"]?["entry"]?["delivery"]?["attempts"] == 2, "\(String(describing: answer))")
        let all = try await Self.requests(backend, atLeast: 0)
        #expect(all.count == 2 && all.last?["failed"] as? Bool == false, "\(all)")
        await CrossInstancePushTests.stop(gateways)
    }
}
