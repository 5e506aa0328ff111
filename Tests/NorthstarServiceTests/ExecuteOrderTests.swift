import Foundation
import NorthstarService
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import Testing
import PayRPCTestSupport
import PayRPCSQLite

/// `northstar.executeOrder` in both forms, `validate`, `tokenizeCard`, and the sandbox's cards.
@Suite("northstar orders")
struct ExecuteOrderTests {
    @Test("bad input first: neither form, a float amount, a card number with letters, a bad expiry")
    func badInput() async throws {
        let client = try await NorthstarFixture().connect()
        let neither = await client.error("northstar.executeOrder", ["card": visa])
        #expect(neither?.code == .invalidParams)
        let float = await client.error(
            "northstar.executeOrder",
            [
                "orderRequest": ["purchaseUnitList": [["amount": ["currencyCode": "USD", "value": .number("10.0")]]]],
                "card": visa,
            ])
        #expect(float?.code == .invalidParams)
        let letters = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4032abcd47327321")])
        #expect(letters?.code == .invalidParams)
        let expiry = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4032036247327321", expiry: "11/30")])
        #expect(expiry?.code == .invalidParams)
        let empty = await client.error("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": []], "card": visa])
        #expect(empty?.code == .invalidParams)
    }

    @Test("a params object of neither form gets one violation list, for the form its keys point at")
    func oneViolationList() async throws {
        let client = try await NorthstarFixture().connect()
        let error = await client.error(
            "northstar.executeOrder", ["orderID": "5O190127TN364715T", "card": ["number": "4032036247327321"]])
        guard case .array(let violations)? = error?.data?["violations"] else {
            Issue.record("no violations")
            return
        }
        #expect(violations.count == 1)
        #expect(violations.first?["pointer"] == "/card")
        #expect(violations.first?["message"]?.stringValue?.contains("expiry") == true)
    }

    @Test("the create form creates and captures at once: COMPLETED, intent CAPTURE, an order id of 17 characters")
    func createAndCapture() async throws {
        let client = try await NorthstarFixture().connect()
        let order = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": visa])
        #expect(order["status"] == "COMPLETED")
        #expect(order["intent"] == "CAPTURE")
        let id = try #require(order["orderID"]?.stringValue)
        #expect(id.count == 17 && id.allSatisfy { $0.isUppercase || $0.isNumber })
        #expect(order["card"]?["lastDigits"] == "7321")
        #expect(order["card"]?["brand"] == "VISA")
        #expect(order["transaction"]?["kind"] == "CAPTURE")
        #expect(order["transaction"]?["amount"]?["value"] == "10.00")
        #expect(try await client.call("sandbox.northstar.getOrder", ["orderID": .string(id)])["status"] == "COMPLETED")
        #expect(
            try await client.call("executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])["status"] == "COMPLETED")
    }

    @Test("the order-id form captures a CAPTURE order and authorizes an AUTHORIZE one; a second execution is refused")
    func existingOrders() async throws {
        let client = try await NorthstarFixture().connect()
        for intent in ["CAPTURE", "AUTHORIZE"] {
            let created = try await client.call(
                "sandbox.northstar.createOrder",
                [
                    "intent": .string(intent), "purchaseUnits": [["amount": ["currencyCode": "EUR", "value": "25.50"]]],
                ])
            #expect(created["status"] == "CREATED")
            let id = try #require(created["orderID"])
            let executed = try await client.call("northstar.executeOrder", ["orderID": id, "card": visa])
            #expect(executed["status"] == "COMPLETED")
            #expect(executed["transaction"]?["kind"] == .string(intent))
            #expect(executed["transaction"]?["status"] == (intent == "CAPTURE" ? "COMPLETED" : "CREATED"))
            let again = await client.error("northstar.executeOrder", ["orderID": id, "card": visa])
            let expected: NorthstarErrorKind = intent == "CAPTURE" ? .orderAlreadyCaptured : .orderAlreadyAuthorized
            #expect(again?.code == expected.code)
            #expect(again?.data?["type"] == .string(expected.rawValue))
            #expect(again?.data?["name"] == "UNPROCESSABLE_ENTITY")
            #expect(await client.error("northstar.validate", ["orderID": id, "card": visa])?.code == expected.code)
            #expect(await client.error("sandbox.northstar.voidOrder", ["orderID": id])?.code == expected.code)
        }
        let missing = await client.error("northstar.executeOrder", ["orderID": "AAAAAAAAAAAAAAAAA", "card": visa])
        #expect(missing?.code == NorthstarErrorKind.orderNotFound.code)
        #expect(missing?.data?["httpStatus"] == 404)
    }

    @Test(
        "test cards: declined, expired, processor error, capture refused",
        arguments: [
            ("4000000000000002", NorthstarErrorKind.instrumentDeclined),
            ("4000000000000069", NorthstarErrorKind.cardExpired),
            ("4000000000000119", NorthstarErrorKind.processorError),
            ("4000000000000341", NorthstarErrorKind.transactionRefused),
        ])
    func testCards(_ number: String, _ kind: NorthstarErrorKind) async throws {
        let client = try await NorthstarFixture().connect()
        let error = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card(number)])
        #expect(error?.code == kind.code)
        #expect(error?.data?["type"] == .string(kind.rawValue))
        #expect(error?.data?["debug_id"]?.stringValue?.count == 13)
        guard case .array(let details)? = error?.data?["details"] else {
            Issue.record("no details")
            return
        }
        #expect(details.first?["issue"] != nil)
        #expect(error.map { "\($0.data!)" }?.contains(number) == false)
    }

    @Test("3-D Secure: PAYER_ACTION_REQUIRED with a payer-action link, completed by the sandbox, then executed")
    func threeDSecure() async throws {
        let client = try await NorthstarFixture().connect()
        let secure = card("4000000000003220")
        let created = try await client.call(
            "sandbox.northstar.createOrder",
            [
                "intent": "CAPTURE", "purchaseUnits": [["amount": ["currencyCode": "USD", "value": "99.00"]]],
            ])
        let id = try #require(created["orderID"])
        let pending = await client.error("northstar.executeOrder", ["orderID": id, "card": secure])
        #expect(pending?.code == NorthstarErrorKind.payerActionRequired.code)
        guard case .array(let links)? = pending?.data?["links"] else {
            Issue.record("no links")
            return
        }
        #expect(links.first?["rel"] == "payer-action")
        #expect(try await client.call("sandbox.northstar.getOrder", ["orderID": id])["status"] == "PAYER_ACTION_REQUIRED")
        #expect(try await client.call("sandbox.northstar.completePayerAction", ["orderID": id])["status"] == "APPROVED")
        #expect(try await client.call("northstar.executeOrder", ["orderID": id])["status"] == "COMPLETED")
    }

    @Test(
        "amounts as Orders v2 checks them: decimals per currency, ISO codes, breakdown sums",
        arguments: [
            ("10.5", "JPY", "DECIMAL_PRECISION"), ("10.00", "JPY", "DECIMAL_PRECISION"), ("10.001", "USD", "DECIMAL_PRECISION"),
            ("10.00", "XYZ", "CURRENCY_NOT_SUPPORTED"), ("0.00", "USD", "CANNOT_BE_ZERO_OR_NEGATIVE"),
        ])
    func amounts(_ value: String, _ currency: String, _ issue: String) async throws {
        let client = try await NorthstarFixture().connect()
        let error = await client.error("northstar.executeOrder", ["orderRequest": orderRequest(value, currency), "card": visa])
        #expect(error?.code == NorthstarErrorKind.unprocessable.code)
        guard case .array(let details)? = error?.data?["details"] else {
            Issue.record("no details")
            return
        }
        #expect(
            details.contains {
                $0["issue"] == .string(issue)
                    && $0["field"]?.stringValue?.hasPrefix("/orderRequest/purchaseUnitList/0/amount") == true
            })
    }

    @Test("a breakdown must add up; JPY without decimals and KWD with three are fine")
    func breakdown() async throws {
        let client = try await NorthstarFixture().connect()
        let wrong = await client.error(
            "northstar.executeOrder",
            [
                "orderRequest": orderRequest(
                    "10.00",
                    breakdown: [
                        "itemTotal": ["currencyCode": "USD", "value": "8.00"],
                        "shipping": ["currencyCode": "USD", "value": "1.00"],
                    ]), "card": visa,
            ])
        #expect(wrong?.data?["details"].map { "\($0)" }?.contains("AMOUNT_MISMATCH") == true)
        let right = try await client.call(
            "northstar.executeOrder",
            [
                "orderRequest": orderRequest(
                    "10.00",
                    breakdown: [
                        "itemTotal": ["currencyCode": "USD", "value": "9.50"],
                        "shipping": ["currencyCode": "USD", "value": "1.00"],
                        "discount": ["currencyCode": "USD", "value": "0.50"],
                    ]), "card": visa,
            ])
        #expect(right["status"] == "COMPLETED")
        #expect(
            try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1000", "JPY"), "card": visa])["status"]
                == "COMPLETED")
        #expect(
            try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.250", "KWD"), "card": visa])[
                "status"] == "COMPLETED")
    }

    @Test("cards: Luhn, brand lengths, security code length, expiry on the sandbox clock")
    func cardRules() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect()
        func issue(_ card: JSONValue) async -> String? {
            let error = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": card])
            guard case .array(let details)? = error?.data?["details"] else { return nil }
            return details.first?["issue"]?.stringValue
        }
        #expect(await issue(card("4032036247327322")) == "INVALID_CARD_NUMBER")
        #expect(await issue(card("12345678901234")) == "CARD_TYPE_NOT_SUPPORTED")
        #expect(await issue(card("378282246310005", securityCode: "123")) == "INVALID_SECURITY_CODE_LENGTH")
        #expect(await issue(card("4032036247327321", securityCode: "1234")) == "INVALID_SECURITY_CODE_LENGTH")
        #expect(await issue(card("4032036247327321", expiry: "2026-10")) == "CARD_EXPIRED")
        #expect(
            try await client.call(
                "northstar.executeOrder",
                ["orderRequest": orderRequest("1.00"), "card": card("4032036247327321", expiry: "2026-11")])["status"]
                == "COMPLETED")
        // A month later on the profile's clock, that card has expired.
        try fixture.sandbox.advance(profile: "default", by: 31 * 86400)
        #expect(await issue(card("4032036247327321", expiry: "2026-11")) == "CARD_EXPIRED")
    }

    @Test("orders expire on the sandbox clock; validate approves without capturing")
    func expiryAndValidate() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect()
        let unit: JSONValue = [["amount": ["currencyCode": "USD", "value": "5.00"]]]
        let first = try #require(
            try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": unit])["orderID"])
        let validated = try await client.call("northstar.validate", ["orderID": first, "card": visa])
        #expect(validated["status"] == "APPROVED")
        #expect(validated["transaction"] == nil)
        let second = try #require(
            try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": unit])["orderID"])
        try fixture.sandbox.advance(profile: "default", by: 3 * 3600)
        #expect(
            await client.error("northstar.executeOrder", ["orderID": second, "card": visa])?.code
                == NorthstarErrorKind.orderExpired.code)
        #expect(
            await client.error("northstar.validate", ["orderID": second, "card": visa])?.code
                == NorthstarErrorKind.orderExpired.code)
    }

    @Test("a voided order cannot be executed; a paid one cannot be voided")
    func voided() async throws {
        let client = try await NorthstarFixture().connect()
        let unit: JSONValue = [["amount": ["currencyCode": "USD", "value": "5.00"]]]
        let id = try #require(
            try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": unit])["orderID"])
        #expect(try await client.call("sandbox.northstar.voidOrder", ["orderID": id])["status"] == "VOIDED")
        #expect(
            await client.error("northstar.executeOrder", ["orderID": id, "card": visa])?.code
                == NorthstarErrorKind.orderExpired.code)
        let paid = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(
            await client.error("sandbox.northstar.voidOrder", ["orderID": paid["orderID"] ?? .null])?.code
                == NorthstarErrorKind.orderAlreadyCaptured.code)
    }

    @Test(
        "tokenizeCard's failures can be injected: the backend unavailable, the processor's error",
        arguments: [NorthstarErrorKind.backendUnavailable, .processorError])
    func tokenizeFailures(_ kind: NorthstarErrorKind) async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect()
        try fixture.failNext("tokenizeCard", kind.rawValue)
        let failed = await client.error("northstar.tokenizeCard", ["card": visa])
        #expect(failed?.code == kind.code)
        #expect(failed?.data?["type"] == .string(kind.rawValue))
        #expect(try await client.call("northstar.tokenizeCard", ["card": visa])["nonce"] != nil)
    }

    @Test("an injected failure is not kept for its idempotency key: the repeat runs")
    func injectedFailureIsNotKept() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect()
        try fixture.failNext("northstar.executeOrder", "BACKEND_UNAVAILABLE")
        let params: JSONValue = ["orderRequest": orderRequest("2.00"), "card": visa, "_meta": ["idempotencyKey": "k"]]
        #expect(await client.error("northstar.executeOrder", params)?.code == NorthstarErrorKind.backendUnavailable.code)
        let paid = try await client.call("northstar.executeOrder", params)
        #expect(paid["status"] == "COMPLETED")
        #expect(try await client.call("northstar.executeOrder", params) == paid)
    }

    @Test("a nonce pays once in place of the card")
    func nonce() async throws {
        let client = try await NorthstarFixture().connect()
        let token = try await client.call("northstar.tokenizeCard", ["card": visa])
        let nonce = try #require(token["nonce"]?.stringValue)
        #expect(nonce.hasPrefix("tokencc_") && nonce.count == 32)
        #expect(token["card"]?["lastDigits"] == "7321")
        #expect(
            try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("3.00"), "nonce": .string(nonce)])[
                "status"] == "COMPLETED")
        let reused = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("3.00"), "nonce": .string(nonce)])
        #expect(reused?.code == NorthstarErrorKind.nonceInvalid.code)
        let both = await client.error(
            "northstar.executeOrder",
            ["orderRequest": orderRequest("3.00"), "card": visa, "nonce": "tokencc_aaaaaaaaaaaaaaaaaaaaaaaa"])
        #expect(both?.code == NorthstarErrorKind.unprocessable.code)
    }

    @Test("without northstar.configure every method says what is missing; only the sandbox environment is served")
    func configuration() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect(configured: false)
        let error = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(error?.code == NorthstarErrorKind.notConfigured.code)
        #expect(error?.data?["details"].map { "\($0)" }?.contains("clientID") == true)
        let live = await client.error("northstar.configure", ["clientID": "c", "environment": "live"])
        #expect(live?.data?["details"].map { "\($0)" }?.contains("CREDENTIALS_MISSING") == true)
        let configured = try await client.call("northstar.configure", ["clientID": "c", "accessToken": "A21AAF-secret-token"])
        #expect(configured["accessTokenSet"] == .bool(true))
        #expect(configured["clientID"] == "c")
    }

    @Test("the same seed gives the same order ids, debug ids and nonces")
    func seeded() async throws {
        func transcript() async throws -> [JSONValue?] {
            let client = try await NorthstarFixture(seed: 42).connect()
            let order = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
            let nonce = try await client.call("northstar.tokenizeCard", ["card": visa])
            let declined = await client.error(
                "northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": card("4000000000000002")])
            return [order["orderID"], order["transaction"]?["id"], nonce["nonce"], declined?.data?["debug_id"]]
        }
        let first = try await transcript()
        #expect(first.allSatisfy { $0 != nil })
        #expect(try await transcript() == first)
    }

    @Test("card numbers, security codes and tokens never reach the store in clear")
    func noSecretsInTheStore() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect(configured: false)
        _ = try await client.call("northstar.configure", ["clientID": "c", "accessToken": "A21AAF-secret-token"])
        _ = try await client.call(
            "northstar.executeOrder",
            ["orderRequest": orderRequest("1.00"), "card": card("5555555555554444", securityCode: "737")])
        let nonce = try #require(try await client.call("northstar.tokenizeCard", ["card": visa])["nonce"]?.stringValue)
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.isEmpty)
        for secret in ["5555555555554444", "4032036247327321", "A21AAF-secret-token", nonce, "\"737\""] {
            #expect(!text.contains(secret), "\(secret) is in the store's files")
        }
    }
}
