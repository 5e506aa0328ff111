import DotpayService
import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import PayRPCTestSupport
import Testing
import PayRPCSQLite

/// URLC notifications to a real local shop backend that checks Dotpay's signature with its own
/// PIN: what is posted, when, with what retries, and how failures show.
@Suite("dotpay urlc")
struct UrlcTests {
    static let pin = "Pin2026abcdefghijklmnopqrstuvwxy"

    /// A fixture, a client, and the shop with the same PIN as the profile.
    static func setUp() async throws -> (DotpayFixture, TestConnection, UrlcShop) {
        let fixture = try await DotpayFixture(seed: 7)
        let client = try await fixture.connect()
        let shop = try await UrlcShop()
        try await shop.control(["pin": pin])
        _ = try await client.call("sandbox.dotpay.setShopPin", ["pin": .string(pin)])
        return (fixture, client, shop)
    }

    @Test("bad input first: an empty PIN, a urlc that is not a URI, a refund of nothing or too precise, unknown answers")
    func badInput() async throws {
        let client = try await DotpayFixture().connect()
        #expect(await client.error("sandbox.dotpay.setShopPin", ["pin": ""])?.code == .invalidParams)
        #expect(
            await client.error("dotpay.getChannelList", ["paymentInfo": paymentInfo(urlc: "not a uri")])?.code == .invalidParams)
        let paid = try await client.call(
            "dotpay.fastPayment", ["paymentInfo": paymentInfo(), "paymentChannelId": 73, "showingDefaultSummary": true])
        let id = try #require(paid["paymentId"])
        #expect(await client.error("sandbox.dotpay.refund", ["paymentId": id, "amount": "0"])?.code == .invalidParams)
        let precise = await client.error("sandbox.dotpay.refund", ["paymentId": id, "amount": "1.001"])
        #expect(precise?.code == .invalidParams && precise?.data?.jsonText.contains("/amount") == true)
        #expect(
            await client.error("sandbox.dotpay.refund", ["paymentId": "M0000-0000"])?.code == DotpayErrorKind.paymentNotFound.code
        )
        #expect(try await client.call("sandbox.dotpay.deliverUrlc") == ["attempted": 0, "delivered": 0, "waiting": 0])
    }

    @Test("a final status posts a form signed as Dotpay signs it; a payment still processing posts nothing")
    func signedConfirmation() async throws {
        let (_, client, shop) = try await Self.setUp()
        let paid = try await client.pay(paymentInfo(control: "order-7", urlc: shop.urlc))
        let rejected = try await client.pay(paymentInfo("13.13", urlc: shop.urlc))
        _ = try await client.pay(paymentInfo("14.14", urlc: shop.urlc))
        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["waiting"] == 0)
        let requests = try await shop.requests()
        #expect(requests.count == 2 && requests.allSatisfy { $0["signatureValid"] as? Bool == true })
        let first = try #require(requests.first)
        #expect(first["path"] as? String == "/dotpay/urlc")
        #expect(first["contentType"] as? String == "application/x-www-form-urlencoded")
        #expect(
            first["names"] as? [String] == [
                "id", "operation_number", "operation_type", "operation_status", "operation_amount", "operation_currency",
                "operation_original_amount", "operation_original_currency", "operation_datetime", "control", "description",
                "email",
                "channel", "signature",
            ])
        let fields = try #require(first["fields"] as? [String: String])
        #expect(fields["id"] == "10000" && fields["operation_type"] == "payment" && fields["operation_status"] == "completed")
        #expect(fields["operation_number"] == paid["paymentId"]?.stringValue && fields["control"] == "order-7")
        #expect(fields["operation_amount"] == "100.00" && fields["operation_currency"] == "PLN" && fields["channel"] == "73")
        #expect(fields["email"] == "jan.kowalski@test.pl" && fields["operation_datetime"] == "2026-11-24 12:00:00")
        #expect(first["key"] as? String == "urlc-\(fields["operation_number"] ?? "")-completed")
        #expect((requests.last?["fields"] as? [String: String])?["operation_status"] == "rejected")
        #expect((requests.last?["fields"] as? [String: String])?["operation_number"] == rejected["paymentId"]?.stringValue)
        guard case .array(let notifications) = try await client.call("sandbox.dotpay.urlcNotifications", [:]) else {
            Issue.record("no list")
            return
        }
        #expect(notifications.count == 2 && notifications.allSatisfy { $0["status"] == "delivered" && $0["attempts"] == 1 })
        let one = try await client.call("sandbox.dotpay.urlcNotifications", ["paymentId": try #require(paid["paymentId"])])
        #expect(one[0]?["httpStatus"] == 200 && one[1] == nil)
    }

    @Test("network failures are retried with the same key; past the retries the notification waits, is reported, and goes later")
    func networkFailures() async throws {
        let (_, client, shop) = try await Self.setUp()
        try await shop.control(["fail": 3, "mode": "drop"])
        _ = try await client.pay(paymentInfo(urlc: shop.urlc))
        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["waiting"] == 0)
        let keys = try await shop.requests().compactMap { $0["key"] as? String }
        #expect(keys.count == 4 && Set(keys).count == 1)

        try await shop.control(["fail": 6, "mode": "drop"])
        let paid = try await client.pay(paymentInfo("2.00", urlc: shop.urlc))
        let failed = try #require(await client.connection.notification("dotpay.urlcDeliveryFailed"))
        #expect(failed["status"] == "waiting" && failed["paymentId"] == paid["paymentId"] && failed["httpStatus"] == nil)
        #expect(failed["message"]?.stringValue?.contains("no answer after 4 tries") == true)
        let waiting = try await client.call("sandbox.dotpay.urlcNotifications", ["paymentId": try #require(paid["paymentId"])])
        #expect(waiting[0]?["status"] == "waiting" && waiting[0]?["attempts"] == 4)
        #expect(try await client.call("sandbox.dotpay.deliverUrlc") == ["attempted": 1, "delivered": 1, "waiting": 0])
        let delivered = try await client.call("sandbox.dotpay.urlcNotifications", ["paymentId": try #require(paid["paymentId"])])
        #expect(delivered[0]?["status"] == "delivered" && delivered[0]?["attempts"] == 7 && delivered[0]?["lastError"] == nil)
    }

    @Test("the shop's error answers are reported with their status: HTTP 500, 200 without OK, a signature made with another PIN")
    func shopErrors() async throws {
        let (_, client, shop) = try await Self.setUp()
        try await shop.control(["fail": 1, "mode": "500"])
        _ = try await client.pay(paymentInfo(urlc: shop.urlc))
        let serverError = try #require(await client.connection.notification("dotpay.urlcDeliveryFailed"))
        #expect(serverError["status"] == "shopError" && serverError["httpStatus"] == 500)
        try await shop.control(["fail": 1, "mode": "notok"])
        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["waiting"] == 1)
        #expect(
            await client.connection.notification("dotpay.urlcDeliveryFailed")?["message"]?.stringValue?.contains("RECEIVED")
                == true)
        try await shop.control(["pin": "another PIN"])
        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["waiting"] == 1)
        let badSignature = try #require(await client.connection.notification("dotpay.urlcDeliveryFailed"))
        #expect(badSignature["httpStatus"] == 400 && badSignature["message"]?.stringValue?.contains("BAD SIGNATURE") == true)
        try await shop.control(["pin": Self.pin])
        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["delivered"] == 1)
        #expect(try await shop.requests().map { $0["signatureValid"] as? Bool } == [true, true, false, true])
    }

    @Test("without a PIN the notification waits as noPin and is reported; setting the PIN sends it")
    func noPin() async throws {
        let fixture = try await DotpayFixture(seed: 7)
        let client = try await fixture.connect()
        let shop = try await UrlcShop()
        try await shop.control(["pin": Self.pin])
        let paid = try await client.pay(paymentInfo(urlc: shop.urlc))
        let failed = try #require(await client.connection.notification("dotpay.urlcDeliveryFailed"))
        #expect(failed["status"] == "noPin" && failed["paymentId"] == paid["paymentId"])
        #expect(try await client.call("sandbox.dotpay.urlcNotifications", [:])[0]?["status"] == "noPin")
        #expect(try await shop.requests().isEmpty)
        _ = try await client.call("sandbox.dotpay.setShopPin", ["pin": .string(Self.pin)])
        #expect(try await shop.waitForAccepted(1) == 1)
        _ = try await client.call("sandbox.dotpay.deliverUrlc")
        #expect(try await client.call("sandbox.dotpay.urlcNotifications", [:])[0]?["status"] == "delivered")
    }

    @Test("a payment that completes later posts its confirmation when the sandbox clock passes its time, with no call")
    func completesLater() async throws {
        let (fixture, client, shop) = try await Self.setUp()
        let paid = try await client.pay(paymentInfo("15.15", urlc: shop.urlc))
        #expect(paid["status"] == "processing")
        #expect(try await client.call("sandbox.dotpay.urlcNotifications", [:]) == [])
        try fixture.sandbox.advance(profile: "default", by: 600)
        #expect(try await shop.waitForAccepted(1) == 1)
        let fields = try #require(try await shop.requests().first?["fields"] as? [String: String])
        #expect(fields["operation_status"] == "completed" && fields["operation_number"] == paid["paymentId"]?.stringValue)
        #expect(fields["operation_datetime"] == "2026-11-24 12:00:00")  // the operation's date: when it was made
        #expect(
            try await client.call("dotpay.updatePaymentSummary", ["paymentId": try #require(paid["paymentId"])])["status"]
                == "completed")
        _ = try await client.call("sandbox.dotpay.deliverUrlc")
        #expect(try await shop.requests().count == 1)
    }

    @Test("refunds: in parts up to the amount, in the history's related operations, to the observers and the shop")
    func refunds() async throws {
        let (fixture, client, shop) = try await Self.setUp()
        let observer = try await fixture.connect()
        _ = try await observer.call("dotpay.paymentHistory.registerObserver")
        let paid = try await client.pay(paymentInfo(urlc: shop.urlc))
        let id = try #require(paid["paymentId"])
        let first = try await client.call("sandbox.dotpay.refund", ["paymentId": id, "amount": "40"])
        let refund = try #require(first["relatedOperations"]?[1])
        #expect(
            refund["type"] == "refund" && refund["amount"] == "40.00" && refund["status"] == "completed" && refund["number"] != id
        )
        #expect(first["status"] == "completed")
        #expect(
            await observer.connection.notification("dotpay.paymentHistory.didUpdatePaymentSummary")?["paymentSummary"]?[
                "relatedOperations"]?[1]?["amount"] == "40.00")
        #expect(
            await client.error("sandbox.dotpay.refund", ["paymentId": id, "amount": "60.01"])?.code
                == DotpayErrorKind.refundRefused.code)
        let rest = try await client.call("sandbox.dotpay.refund", ["paymentId": id])
        #expect(rest["relatedOperations"]?[2]?["amount"] == "60.00")
        #expect(
            await client.error("sandbox.dotpay.refund", ["paymentId": id, "amount": "0.01"])?.code
                == DotpayErrorKind.refundRefused.code)
        let history = try await client.call("dotpay.paymentHistory")
        #expect(history[0]?["relatedOperations"]?.jsonText == rest["relatedOperations"]?.jsonText)
        let rejected = try await client.pay(paymentInfo("13.13"))
        #expect(
            await client.error("sandbox.dotpay.refund", ["paymentId": try #require(rejected["paymentId"])])?.code
                == DotpayErrorKind.refundRefused.code)

        #expect(try await client.call("sandbox.dotpay.deliverUrlc")["waiting"] == 0)
        let refunds = try await shop.requests().compactMap { $0["fields"] as? [String: String] }.filter {
            $0["operation_type"] == "refund"
        }
        #expect(refunds.map { $0["operation_amount"] } == ["40.00", "60.00"])
        #expect(refunds.allSatisfy { $0["operation_related_number"] == id.stringValue && $0["operation_status"] == "completed" })
        #expect(try await shop.requests().allSatisfy { $0["signatureValid"] as? Bool == true })
    }

    @Test("the shop's PIN is never in the store in clear")
    func pinSealed() async throws {
        let (fixture, client, shop) = try await Self.setUp()
        _ = try await client.pay(paymentInfo(urlc: shop.urlc))
        _ = try await client.call("sandbox.dotpay.deliverUrlc")
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("urlc-") && !text.contains(Self.pin))
    }
}
