import DotpayService
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// Who hears Dotpay's callbacks: every connection of the profile, including one that never called
/// Dotpay (it only said `rpc.hello`); never a connection of another profile; and a URLC failure
/// raised while the profile has no connection (the resend at start-up) waits for the profile's
/// first connection, which hears it once.
@Suite("dotpay callback audience")
struct CallbackAudienceTests {
    /// Opens a connection and moves it to `profile`.
    static func connect(_ fixture: DotpayFixture, profile: String) async throws -> TestConnection {
        let connection = try await fixture.connect()
        _ = try await connection.call("rpc.hello", ["profile": .string(profile)])
        return connection
    }

    /// A fixture's payer and dashboard (profile `shop`; the dashboard never calls Dotpay) and a
    /// stranger (profile `elsewhere`).
    static func audience() async throws -> (payer: TestConnection, dashboard: TestConnection, stranger: TestConnection) {
        let fixture = try await DotpayFixture(seed: 7)
        return (
            try await connect(fixture, profile: "shop"), try await connect(fixture, profile: "shop"),
            try await connect(fixture, profile: "elsewhere")
        )
    }

    /// Whether nothing came to `connection` before the answer to a call made now: a notification
    /// sent to it earlier would stand before that answer.
    static func heardNothing(_ connection: TestConnection) async throws -> Bool {
        #expect(try await connection.call("rpc.health")["status"] == "SERVING")
        return connection.unreadLines.isEmpty
    }

    @Test("bad input tells no one; a card registered by one connection reaches every connection of its profile, none of another")
    func cardCallbacksReachTheWholeProfile() async throws {
        let (payer, dashboard, stranger) = try await Self.audience()
        #expect(
            await payer.error("dotpay.registerPaymentCard", cardInfo("4111111111111112"))?.code
                == DotpayErrorKind.cardRefused.code)
        #expect(await payer.error("dotpay.registerPaymentCard", ["cardInfo": "4111111111111111"])?.code == .invalidParams)
        #expect(try await Self.heardNothing(dashboard))

        let card = try await payer.call("dotpay.registerPaymentCard", cardInfo())
        let id = try #require(card["creditCardId"])
        for connection in [payer, dashboard] {
            #expect(await connection.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"] == id)
            #expect(await connection.notification("dotpay.didChangeDefaultOneClickPaymentCard")?["card"]?["creditCardId"] == id)
        }
        // The callbacks are sent before the call answers: one to the stranger would stand before this answer.
        #expect(try await Self.heardNothing(stranger))
        #expect(try await stranger.call("dotpay.paymentCards") == [])

        // A connection that moves to the profile afterwards hears the next change, and the one it left does not.
        _ = try await stranger.call("rpc.hello", ["profile": "shop"])
        _ = try await dashboard.call("rpc.hello", ["profile": "elsewhere"])
        let second = try await payer.call("dotpay.registerPaymentCard", cardInfo("5555555555554444"))
        #expect(
            await stranger.notification("dotpay.didRegisterNewCreditCard")?["card"]?["creditCardId"] == second["creditCardId"])
        #expect(try await Self.heardNothing(dashboard))
    }

    @Test("a URLC failure reaches the profile's connection that never called dotpay, and not another profile's")
    func urlcFailureReachesTheWholeProfile() async throws {
        let (payer, dashboard, stranger) = try await Self.audience()
        let shop = try await UrlcShop()
        // No shop PIN is set for the profile: the notification cannot be signed.
        let paid = try await payer.pay(paymentInfo(urlc: shop.urlc))
        let failed = try #require(await dashboard.notification("dotpay.urlcDeliveryFailed"))
        #expect(
            failed["status"] == "noPin" && failed["paymentId"] == paid["paymentId"] && failed["url"]?.stringValue == shop.urlc)
        #expect(await payer.notification("dotpay.urlcDeliveryFailed") == failed)
        #expect(try await Self.heardNothing(stranger))
        #expect(try await shop.requests().isEmpty)
    }

    @Test(
        "a URLC failure at start-up, with no client, waits for the profile's first connection: another profile's does not take it, the first hears it once"
    )
    func startupFailureWaitsForTheFirstConnection() async throws {
        let fixture = try await DotpayFixture(seed: 7)
        let client = try await Self.connect(fixture, profile: "shop")
        let shop = try await UrlcShop()
        try await shop.control(["pin": UrlcTests.pin])
        _ = try await client.call("sandbox.dotpay.setShopPin", ["pin": .string(UrlcTests.pin)])
        try await shop.control(["fail": 2, "mode": "500"])
        let paid = try await client.pay(paymentInfo(urlc: shop.urlc))
        let live = try #require(await client.notification("dotpay.urlcDeliveryFailed"))
        #expect(live["status"] == "shopError" && live["httpStatus"] == 500)

        #expect(try await fixture.restartAndResend())
        let stranger = try await Self.connect(fixture, profile: "elsewhere")
        #expect(try await Self.heardNothing(stranger))
        let first = try await Self.connect(fixture, profile: "shop")
        let held = try #require(await first.notification("dotpay.urlcDeliveryFailed"))
        #expect(held["paymentId"] == paid["paymentId"] && held["status"] == "shopError" && held["httpStatus"] == 500)
        #expect(held["notificationId"] == live["notificationId"])
        let second = try await Self.connect(fixture, profile: "shop")
        #expect(try await Self.heardNothing(second))
        #expect(try await Self.heardNothing(first))
        let stored = try await first.call("sandbox.dotpay.urlcNotifications", ["paymentId": try #require(paid["paymentId"])])
        #expect(stored[0]?["status"] == "shopError" && stored[0]?["attempts"] == 2)
        #expect(try await shop.requests().count == 2)
    }
}
