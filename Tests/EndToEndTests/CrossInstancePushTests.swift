import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A callback caused through one gateway reaches the connections on another gateway of the same
/// PostgreSQL database that should hear it, once each: a PBBA pop-up shown through A, the payment
/// approved (or declined) through B, and `pbba.paymentStatusChanged` on A's connection; Dotpay's
/// card callbacks and URLC failures, and the journal's `journal.syncFailed`, caused through B and
/// heard by A's connections of the profile (and by no connection of another profile); Dotpay's
/// history callbacks, heard by the history's observers of the profile on both gateways.
@Suite struct CrossInstancePushTests {
    /// Two gateways on one new database, with their addresses; `arguments` are added to each
    /// one's `serve`, and `firstOnly` to the first one's.
    static func twoGateways(_ arguments: [String] = [], on database: String? = nil, firstOnly: [String] = []) async throws
        -> (gateways: [SpawnedServer], addresses: [String])
    {
        let url: String
        if let database { url = database } else { url = try await SharedDatabase.migrated() }
        var gateways: [SpawnedServer] = []
        var addresses: [String] = []
        for index in 0..<2 {
            let (gateway, address) = try await Self.gateway(url, arguments + (index == 0 ? firstOnly : []))
            addresses.append(address)
            gateways.append(gateway)
        }
        return (gateways, addresses)
    }

    /// A gateway on the database at `url` (`arguments` added to its `serve`), with its address.
    static func gateway(_ url: String, _ arguments: [String] = []) async throws -> (SpawnedServer, String) {
        let gateway = try await SharedDatabase.gateway(url, ["--tcp", "127.0.0.1:0"] + arguments)
        return (gateway, try #require(await gateway.listeningAddress()))
    }

    /// Two gateways, A's connections of profile `shop` (a dashboard that only said `rpc.hello`) and
    /// of profile `elsewhere`, and B's connection of `shop` that causes the callbacks.
    static func audience() async throws -> (
        gateways: [SpawnedServer], dashboard: PBBAJourneyTests.Peer, stranger: PBBAJourneyTests.Peer,
        actor: PBBAJourneyTests.Peer
    ) {
        let (gateways, addresses) = try await twoGateways()
        return (
            gateways, try await peer(addresses[0], profile: "shop"), try await peer(addresses[0], profile: "elsewhere"),
            try await peer(addresses[1], profile: "shop")
        )
    }

    /// Stops the gateways, each cleanly.
    static func stop(_ gateways: [SpawnedServer]) async {
        for gateway in gateways {
            gateway.signal(SIGTERM)
            #expect(await gateway.waitForExit() == 0)
        }
    }

    /// A connection to `address` that said `rpc.hello` with `profile`.
    static func peer(_ address: String, profile: String) async throws -> PBBAJourneyTests.Peer {
        let peer = try PBBAJourneyTests.Peer(address)
        #expect(await peer.result("rpc.hello", ["profile": .string(profile)])?["profile"] == .string(profile))
        return peer
    }

    /// Whether `peer` heard nothing by the time it has the answer to a call made now (and since
    /// its last notification was taken).
    static func heardNothingMore(_ peer: PBBAJourneyTests.Peer) async -> Bool {
        #expect(await peer.result("rpc.health")?["status"] == "SERVING")
        return peer.notifications.isEmpty
    }

    /// A Dotpay payment of `amount` PLN through `peer` by channel 73, whose URLC notification goes
    /// to a port nothing listens on (the profiles here set no shop PIN, so it fails before any POST).
    static func pay(_ peer: PBBAJourneyTests.Peer, amount: String) async throws -> JSONValue {
        let info: JSONValue = [
            "merchantID": "10000", "amount": .string(amount), "currency": "PLN", "textDescription": "Bilet",
            "urlc": "http://127.0.0.1:9/shop/urlc",
        ]
        let details = try #require(await peer.result("dotpay.getChannelList", ["paymentInfo": info])?["paymentDetails"])
        return try #require(await peer.result("dotpay.pay", ["paymentDetails": details, "channelId": 73]))
    }

    @Test func aDecisionThroughOneGatewayReachesThePopupOnAnother() async throws {
        let (gateways, addresses) = try await Self.twoGateways()
        let app = try PBBAJourneyTests.Peer(addresses[0]), bank = try PBBAJourneyTests.Peer(addresses[1])
        _ = await bank.result("rpc.hello", ["profile": "other-device"])
        for decision in ["approvePayment", "declinePayment"] {
            let request = try #require(
                await app.result("pbba.submitPaymentRequest", ["amount": "10.00", "currency": "GBP", "reference": "Order"]))
            let (token, brn) = (try #require(request["secureToken"]), try #require(request["brn"]))
            let popup = await app.result("pbba.showPBBAPopup", ["secureToken": token, "brn": brn, "expiryInterval": 300])
            let popupId = try #require(popup?["popupId"])
            let decided = await bank.result("sandbox.pbba.\(decision)", ["secureToken": token])
            let status: JSONValue = decision == "approvePayment" ? "completed" : "declined"
            #expect(decided?["status"] == status)
            let pushed = await app.notification("pbba.paymentStatusChanged", timeout: 60)
            #expect(
                pushed?["status"] == status && pushed?["brn"] == brn && pushed?["popupId"] == popupId,
                "\(String(describing: pushed))")
            // Once: nothing more about it has come by the time A answers a later call.
            _ = await app.result("rpc.health")
            #expect(!app.notifications.contains { $0["method"] == "pbba.paymentStatusChanged" })
        }
        await Self.stop(gateways)
    }

    /// Dotpay's callbacks to a profile's audience: cards registered through B and a URLC
    /// notification that fails through B (the profile set no shop PIN) are heard by A's
    /// dashboard of the profile once each, in order, and by A's connection of another profile not
    /// at all.
    @Test func dotpayCallbacksThroughOneGatewayReachTheProfileOnAnother() async throws {
        let (gateways, dashboard, stranger, payer) = try await Self.audience()
        // Bad input causes nothing.
        let refused = await payer.call("dotpay.registerPaymentCard", ["cardInfo": "4111111111111111"])
        #expect(refused?["error"]?["code"] == -32602)

        var ids: [JSONValue] = []
        for number in ["4111111111111111", "5555555555554444"] {
            let card = await payer.result(
                "dotpay.registerPaymentCard",
                ["cardInfo": ["cardNumber": .string(number), "expirationMonth": 12, "expirationYear": 2199, "cvv": "123"]])
            ids.append(try #require(card?["creditCardId"]))
        }
        // The first card became the default; each callback comes once, in the order of its cause.
        #expect(await dashboard.notification("dotpay.didRegisterNewCreditCard", timeout: 60)?["card"]?["creditCardId"] == ids[0])
        #expect(
            await dashboard.notification("dotpay.didChangeDefaultOneClickPaymentCard", timeout: 60)?["card"]?["creditCardId"]
                == ids[0])
        #expect(await dashboard.notification("dotpay.didRegisterNewCreditCard", timeout: 60)?["card"]?["creditCardId"] == ids[1])

        let paid = try await Self.pay(payer, amount: "100.00")
        let failed = try #require(await dashboard.notification("dotpay.urlcDeliveryFailed", timeout: 60))
        #expect(failed["status"] == "noPin" && failed["paymentId"] == paid["paymentId"])
        #expect(await payer.notification("dotpay.urlcDeliveryFailed", timeout: 60) == failed)
        #expect(await Self.heardNothingMore(dashboard), "\(dashboard.notifications)")
        #expect(await Self.heardNothingMore(stranger), "\(stranger.notifications)")
        await Self.stop(gateways)
    }

    /// The journal's `journal.syncFailed`: two entries paid through B whose delivery the
    /// sandbox Web API refuses are heard by A's connection of the profile once each, in order,
    /// and by A's connection of another profile not at all.
    @Test func journalSyncFailedThroughOneGatewayReachesTheProfileOnAnother() async throws {
        let (gateways, dashboard, stranger, till) = try await Self.audience()
        #expect(await till.call("journal.pay", ["type": "cash", "amount": "abc"])?["error"] != nil)
        _ = await till.result(
            "sandbox.journal.setNextAnswers",
            [
                "answers": [
                    ["outcome": "serverError", "httpStatus": 503, "message": "maintenance"],
                    ["outcome": "serverError", "httpStatus": 500, "message": "still down"],
                ]
            ])
        var entries: [JSONValue] = []
        for amount in ["100", "200"] {
            let entry = await till.result("journal.pay", ["type": "cash", "amount": .string(amount)])?["entry"]
            #expect(entry?["delivery"]?["status"] == "serverError")
            entries.append(try #require(entry?["entryId"]))
        }
        let first = await dashboard.notification("journal.syncFailed", timeout: 60)
        #expect(
            first == ["entryId": entries[0], "endpoint": "/payments/", "httpStatus": 503, "message": "maintenance"],
            "\(String(describing: first))")
        let second = await dashboard.notification("journal.syncFailed", timeout: 60)
        #expect(second?["entryId"] == entries[1] && second?["message"] == "still down", "\(String(describing: second))")
        #expect(await Self.heardNothingMore(dashboard), "\(dashboard.notifications)")
        #expect(await Self.heardNothingMore(stranger), "\(stranger.notifications)")
        await Self.stop(gateways)
    }

    /// Dotpay's history callbacks: payments read again (`dotpay.updatePaymentSummary`) through B
    /// are told to the history's observers of the profile on A and on B, once each: the summary,
    /// then the failure of a payment whose status cannot be read (sandbox amount 17.17). A's
    /// connection of the profile that does not observe, and A's observer of another profile, hear
    /// nothing.
    @Test func dotpayHistoryCallbacksThroughOneGatewayReachTheObserversOnAnother() async throws {
        let (gateways, addresses) = try await Self.twoGateways()
        let observer = try await Self.peer(addresses[0], profile: "shop")
        let bystander = try await Self.peer(addresses[0], profile: "shop")
        let stranger = try await Self.peer(addresses[0], profile: "elsewhere")
        let actor = try await Self.peer(addresses[1], profile: "shop")
        for peer in [observer, stranger, actor] { _ = await peer.result("dotpay.paymentHistory.registerObserver") }
        let missing = await actor.call("dotpay.updatePaymentSummary", ["paymentId": "no-such-payment"])
        #expect(missing?["error"]?["code"] == -32602, "\(String(describing: missing))")

        var ids: [JSONValue] = []
        for amount in ["1.00", "17.17"] {
            let info: JSONValue = [
                "merchantID": "10000", "amount": .string(amount), "currency": "PLN", "textDescription": "Bilet",
            ]
            let paid = await actor.result(
                "dotpay.fastPayment", ["paymentInfo": info, "paymentChannelId": 73, "showingDefaultSummary": true])
            ids.append(try #require(paid?["paymentId"]))
        }
        let updated = await actor.result("dotpay.updatePaymentSummary", ["paymentId": ids[0]])
        #expect(updated?["paymentId"] == ids[0])
        let failed = await actor.call("dotpay.updatePaymentSummary", ["paymentId": ids[1]])
        #expect(failed?["error"]?["code"] == -33410, "\(String(describing: failed))")
        for peer in [observer, actor] {
            let summary = await peer.notification("dotpay.paymentHistory.didUpdatePaymentSummary", timeout: 60)
            #expect(summary?["paymentSummary"] == updated, "\(String(describing: summary))")
            let failure = await peer.notification("dotpay.paymentHistory.didFailedToUpdatePaymentSummary", timeout: 60)
            #expect(
                failure?["paymentSummary"]?["paymentId"] == ids[1] && failure?["error"]?["type"] == "updateFailed",
                "\(String(describing: failure))")
        }
        for peer in [observer, bystander, stranger, actor] {
            #expect(await Self.heardNothingMore(peer), "\(peer.notifications)")
        }
        await Self.stop(gateways)
    }

    /// A callback for a profile with no connection on any gateway waits for the profile's first
    /// connection on any of them, which gets it once: an entry left waiting through A (the sandbox
    /// Web API's network failures), then B starts and its resend meets a server error, with no
    /// connection of the profile anywhere; the profile's connection opened on A gets
    /// `journal.syncFailed` once, and a later one on B (where it was caused) or on A gets nothing.
    @Test func aCallbackHeldForAProfileReachesItsFirstConnectionOnAnyGateway() async throws {
        let url = try await SharedDatabase.migrated()
        let (a, addressA) = try await Self.gateway(url)
        let till = try await Self.peer(addressA, profile: "shop")
        let refused = await till.call("sandbox.journal.setNextAnswers", ["answers": [["outcome": "teleport"]]])
        #expect(refused?["error"]?["code"] == -32602, "\(String(describing: refused))")
        let network: JSONValue = ["outcome": "networkFailure"]
        _ = await till.result(
            "sandbox.journal.setNextAnswers",
            [
                "answers": [
                    network, network, network, network, ["outcome": "serverError", "httpStatus": 503, "message": "maintenance"],
                ]
            ])
        let entry = await till.result("journal.pay", ["type": "cash", "amount": "100"])?["entry"]
        #expect(entry?["delivery"]?["status"] == "waiting", "\(String(describing: entry))")
        till.socket.close()

        let (b, addressB) = try await Self.gateway(url)
        let first = try await Self.peer(addressA, profile: "shop")
        let held = await first.notification("journal.syncFailed", timeout: 60)
        #expect(
            held == [
                "entryId": entry?["entryId"] ?? .null, "endpoint": "/payments/", "httpStatus": 503, "message": "maintenance",
            ],
            "\(String(describing: held))")
        let onB = try await Self.peer(addressB, profile: "shop")
        let second = try await Self.peer(addressA, profile: "shop")
        for peer in [first, onB, second] { #expect(await Self.heardNothingMore(peer), "\(peer.notifications)") }
        await Self.stop([a, b])
    }

    /// A Dotpay payment that completes later, armed through A, completes once through B after A
    /// was SIGKILLed, on a clock advance through B. B has completed a payment of the profile
    /// before (so it knows of nothing more due there): only the store's event of the payment
    /// armed on A tells it to look again. Each completion's URLC notification fails (the profile
    /// set no shop PIN), which B's connection hears once.
    @Test func aDelayedDotpayCompletionArmedThroughOneGatewayFiresThroughAnotherAfterItDied() async throws {
        let (gateways, addresses) = try await Self.twoGateways()
        let (a, b) = (gateways[0], gateways[1])
        let armer = try await Self.peer(addresses[0], profile: "shop")
        let watcher = try await Self.peer(addresses[1], profile: "shop")
        #expect(await watcher.call("sandbox.clock.advance", ["seconds": -1])?["error"]?["code"] == -32602)
        /// Pays 15.15 (completes 600 s later on the sandbox clock) through `peer`; returns the payment id.
        func payLater(_ peer: PBBAJourneyTests.Peer) async throws -> JSONValue {
            let paid = try await Self.pay(peer, amount: "15.15")
            #expect(paid["status"] == "processing")
            return try #require(paid["paymentId"])
        }
        /// Advances the clock through B and waits for the completion's failed URLC notification.
        func completeThroughB(_ paymentId: JSONValue) async {
            _ = await watcher.result("sandbox.clock.advance", ["seconds": 600])
            let failed = await watcher.notification("dotpay.urlcDeliveryFailed", timeout: 60)
            #expect(failed?["paymentId"] == paymentId && failed?["status"] == "noPin", "\(String(describing: failed))")
        }
        await completeThroughB(try await payLater(watcher))

        let armed = try await payLater(armer)
        a.signal(SIGKILL)
        #expect(await a.waitForExit() == SIGKILL)
        await completeThroughB(armed)
        let stored = await watcher.result("sandbox.dotpay.urlcNotifications", ["paymentId": armed])
        guard case .array(let notifications)? = stored else {
            Issue.record("no notifications: \(String(describing: stored))")
            return
        }
        #expect(notifications.count == 1 && notifications.first?["status"] == "noPin", "\(notifications)")
        #expect(await Self.heardNothingMore(watcher), "\(watcher.notifications)")
        b.signal(SIGTERM)
        #expect(await b.waitForExit() == 0)
    }
}
