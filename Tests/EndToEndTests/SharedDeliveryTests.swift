import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Outbox deliveries across two gateways of one PostgreSQL database (the kit's
/// `SharedDeliveries`), against the real local backends the journal and Dotpay tests use (HTTP
/// servers that fail the POSTs they are told to and count every request): a first try or a retry
/// whose gateway was SIGKILLed while making it is made once by the other gateway; with both alive
/// each try is made once; two gateways started together on a waiting entry send it once.
@Suite(.serialized) struct SharedDeliveryTests {
    /// Each request the shop saw, once there are at least `count`.
    static func shopRequests(_ shop: DotpayJourneyTests.Shop, atLeast count: Int) async throws -> [[String: Any]] {
        try await shop.backend.exchange("/_requests?atLeast=\(count)") as? [[String: Any]] ?? []
    }

    /// What a test that SIGKILLs gateway A while one of its Web API tries hangs gives A: a
    /// timeout far longer than the test, so that the try is still under way when the kill comes,
    /// however loaded the machine (with the default 10 s, A once timed the try out first and made
    /// the next one itself). B keeps the default: how long it waits for a try A holds.
    static let patientGateway = ["--web-api-timeout", "3600"]

    /// Two gateways with a journal backend and a shop whose PIN is set, A's and B's connections
    /// of profile `shop` (the shop's PIN set through A); `firstOnly` is added to A's `serve`.
    static func dotpayPair(
        _ shop: DotpayJourneyTests.Shop, _ arguments: [String] = [], on database: String? = nil, firstOnly: [String] = []
    ) async throws -> (gateways: [SpawnedServer], a: PBBAJourneyTests.Peer, b: PBBAJourneyTests.Peer) {
        let pin = "Pin2026-shared"
        _ = try await shop.backend.exchange("/_control", posting: ["pin": pin])
        let (gateways, addresses) = try await CrossInstancePushTests.twoGateways(arguments, on: database, firstOnly: firstOnly)
        let a = try await CrossInstancePushTests.peer(addresses[0], profile: "shop")
        let b = try await CrossInstancePushTests.peer(addresses[1], profile: "shop")
        #expect(await a.call("sandbox.dotpay.setShopPin", ["pin": 7])?["error"]?["code"] == -32602)
        #expect(await a.call("sandbox.dotpay.setShopPin", ["pin": .string(pin)])?["error"] == nil)
        return (gateways, a, b)
    }

    /// A Dotpay payment through `peer` whose URLC notification goes to `shop`.
    static func pay(_ peer: PBBAJourneyTests.Peer, to shop: DotpayJourneyTests.Shop) async throws -> JSONValue {
        let info: JSONValue = [
            "merchantID": "10000", "amount": "80.00", "currency": "PLN", "textDescription": "Bilet",
            "urlc": .string(shop.urlc),
        ]
        let details = try #require(await peer.result("dotpay.getChannelList", ["paymentInfo": info])?["paymentDetails"])
        return try #require(await peer.result("dotpay.pay", ["paymentDetails": details, "channelId": 73]))
    }

    @Test func aJournalFirstTryWhoseGatewayDiedIsMadeOnceByAnother() async throws {
        try await Self.journalTryTakenOver(["hang"])
    }

    /// A cash entry paid through A whose POSTs meet `failModes` in turn, the last of them hanging:
    /// A is SIGKILLed while that try hangs, and B makes it, once, with the same idempotency key,
    /// delivers the entry and records it (A recorded every try but the hanging one).
    static func journalTryTakenOver(_ failModes: [String]) async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failModes": failModes])
        let (gateways, addresses) = try await CrossInstancePushTests.twoGateways(
            ["--journal-backend", backend.url], firstOnly: patientGateway)
        let (a, b) = (gateways[0], gateways[1])
        let till = try await CrossInstancePushTests.peer(addresses[0], profile: "shop")
        let watcher = try await CrossInstancePushTests.peer(addresses[1], profile: "shop")
        #expect(await till.call("journal.pay", ["type": "cash", "amount": "-1"])?["error"]?["code"] == -33202)

        // Not answered: A is killed while its last try hangs.
        till.socket.sendLine(#"{"jsonrpc":"2.0","id":"pay","method":"journal.pay","params":{"type":"cash","amount":"100"}}"#)
        let tried = try await SharedRetryTests.requests(backend, atLeast: failModes.count)
        #expect(tried.count == failModes.count && tried.allSatisfy { $0["failed"] as? Bool == true }, "\(tried)")
        a.signal(SIGKILL)
        #expect(await a.waitForExit() == SIGKILL)

        let all = try await SharedRetryTests.requests(backend, atLeast: failModes.count + 1)
        #expect(all.count == failModes.count + 1, "\(all)")
        #expect(Set(all.compactMap { $0["key"] as? String }).count == 1 && all.last?["failed"] as? Bool == false, "\(all)")
        #expect(await b.waitForLog(containing: "made a delivery try whose gateway stopped before making it"))
        // Recorded through B: a sync there finds it delivered (it waits for a delivery still
        // recording) and posts nothing more.
        let synced = await watcher.result("journal.sync")
        #expect(synced?["waiting"] == 0, "\(String(describing: synced))")
        guard case .array(let entries)? = await watcher.result("journal.list")?["entries"] else {
            Issue.record("no journal through B")
            return
        }
        #expect(entries.count == 1 && entries.first?["delivery"]?["status"] == "delivered", "\(entries)")
        #expect(entries.first?["delivery"]?["attempts"] == .int(failModes.count), "\(entries)")
        let stored = try await backend.get("/_payments") as? [String: Any]
        #expect((stored?["payments"] as? [String: Any])?.count == 1)
        #expect(try await SharedRetryTests.requests(backend, atLeast: 0).count == failModes.count + 1)
        #expect(await CrossInstancePushTests.heardNothingMore(watcher), "\(watcher.notifications)")
        b.signal(SIGTERM)
        #expect(await b.waitForExit() == 0)
    }

    @Test func twoGatewaysStartedTogetherSendAWaitingEntryOnce() async throws {
        let backend = try await JournalJourneyTests.Backend()
        try await backend.post("/_control", ["failModes": ["drop", "drop", "drop", "drop"]])
        let url = try await SharedDatabase.migrated()
        let (first, address) = try await CrossInstancePushTests.gateway(url, ["--journal-backend", backend.url])
        let till = try await CrossInstancePushTests.peer(address, profile: "shop")
        let entry = await till.result("journal.pay", ["type": "cash", "amount": "100"])?["entry"]
        #expect(
            entry?["delivery"]?["status"] == "waiting" && entry?["delivery"]?["attempts"] == 4, "\(String(describing: entry))")
        first.signal(SIGTERM)
        #expect(await first.waitForExit() == 0)

        // Both start at once on the waiting entry: each ends its start-up resend of the profile,
        // and one of them sent the entry, once: its first try hangs until its timeout, so the
        // other starts while it is under way, and its retry delivers it.
        try await backend.post("/_control", ["failModes": ["hang"]])
        let arguments = ["--journal-backend", backend.url, "--log-level", "debug"]
        async let startedA = CrossInstancePushTests.gateway(url, arguments)
        async let startedB = CrossInstancePushTests.gateway(url, arguments)
        let (a, b) = (try await startedA, try await startedB)
        for gateway in [a.0, b.0] {
            // Logged before or after it said where it listens (which read the lines up to that).
            let ended = "start-up resend of a profile:"
            #expect(gateway.logText.contains(ended) ? true : await gateway.waitForLog(containing: ended))
        }
        let all = try await SharedRetryTests.requests(backend, atLeast: 6)
        #expect(all.count == 6 && all.filter { $0["failed"] as? Bool == false }.count == 1, "\(all)")
        let watcher = try await CrossInstancePushTests.peer(b.1, profile: "shop")
        let stored = await watcher.result("journal.get", ["entryId": entry?["entryId"] ?? .null])
        #expect(stored?["delivery"]?["status"] == "delivered" && stored?["delivery"]?["attempts"] == 6)
        #expect(try await SharedRetryTests.requests(backend, atLeast: 0).count == 6)
        await CrossInstancePushTests.stop([a.0, b.0])
    }

    @Test func aUrlcFirstTryWhoseGatewayDiedIsMadeOnceByAnother() async throws {
        try await Self.urlcTryTakenOver(["hang"])
    }

    @Test func aUrlcRetryWhoseGatewayDiedIsMadeOnceByAnother() async throws {
        try await Self.urlcTryTakenOver(["drop", "hang"])
    }

    /// A payment through A whose URLC notification meets `failModes` at the shop in turn, the last
    /// of them hanging: A is SIGKILLed while that try hangs, and B makes it, once, with the same
    /// idempotency key, and records it.
    static func urlcTryTakenOver(_ failModes: [String]) async throws {
        let shop = try await DotpayJourneyTests.Shop()
        let (gateways, a, b) = try await Self.dotpayPair(shop, firstOnly: patientGateway)
        _ = try await shop.backend.exchange("/_control", posting: ["failModes": failModes])
        _ = try await Self.pay(a, to: shop)
        let tried = try await Self.shopRequests(shop, atLeast: failModes.count)
        #expect(tried.count == failModes.count && tried.allSatisfy { $0["failed"] as? Bool == true }, "\(tried)")
        gateways[0].signal(SIGKILL)
        #expect(await gateways[0].waitForExit() == SIGKILL)

        #expect(try await shop.backend.exchange("/_wait?accepted=1") as? [String: Int] == ["accepted": 1])
        let all = try await Self.shopRequests(shop, atLeast: failModes.count + 1)
        #expect(all.count == failModes.count + 1 && Set(all.compactMap { $0["key"] as? String }).count == 1, "\(all)")
        #expect(all.last?["signatureValid"] as? Bool == true)
        #expect(await gateways[1].waitForLog(containing: "made a delivery try whose gateway stopped before making it"))
        // A resend through B finds it delivered (it waits for the delivery still recording) and posts nothing.
        #expect(await b.result("sandbox.dotpay.deliverUrlc")?["waiting"] == 0)
        let listed = await b.result("sandbox.dotpay.urlcNotifications")
        guard case .array(let notifications)? = listed, let notification = notifications.first else {
            Issue.record("no notification through B: \(String(describing: listed))")
            return
        }
        #expect(
            notifications.count == 1 && notification["status"] == "delivered"
                && notification["attempts"] == .int(failModes.count), "\(notifications)")
        #expect(try await Self.shopRequests(shop, atLeast: 0).count == failModes.count + 1)
        await CrossInstancePushTests.stop([gateways[1]])
    }

    /// Both gateways alive: A makes the notification's first try and its two retries; B hears of
    /// each try armed and of each made, and makes none.
    @Test func withBothAliveEachUrlcTryIsMadeOnce() async throws {
        let shop = try await DotpayJourneyTests.Shop()
        let url = try await SharedDatabase.migrated()
        let (gateways, a, _) = try await Self.dotpayPair(shop, ["--log-level", "debug"], on: url)
        _ = try await shop.backend.exchange("/_control", posting: ["failModes": ["drop", "drop"]])
        _ = try await Self.pay(a, to: shop)
        #expect(try await shop.backend.exchange("/_wait?accepted=1") as? [String: Int] == ["accepted": 1])
        for _ in 0..<3 {
            #expect(await gateways[1].waitForLog(containing: "a delivery try armed by another gateway was made there"))
        }
        let all = try await Self.shopRequests(shop, atLeast: 0)
        #expect(all.count == 3 && all.filter { $0["failed"] as? Bool == false }.count == 1, "\(all)")
        // The shop's OK is recorded with its try: the notification's last write is the transaction
        // that announced the try made (no gateway can die between the two).
        let database = try #require(url.split(separator: "/").last.map(String.init))
        let cluster = try await PostgresTestCluster.shared()
        let made = try await cluster.psql(
            "SELECT xmin::text FROM payrpc_event WHERE channel = 'outbox.tries' AND payload::jsonb->>'made' = 'true' "
                + "ORDER BY seq DESC LIMIT 1", database: database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let written = try await cluster.psql(
            "SELECT xmin::text FROM payrpc_document WHERE namespace = 'dotpay.urlc'", database: database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!made.isEmpty && written == made, "the notification last written by \(written), the try made by \(made)")
        await CrossInstancePushTests.stop(gateways)
    }
}
