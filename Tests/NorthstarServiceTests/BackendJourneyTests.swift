import Foundation
import NorthstarService
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import Testing
import PayRPCTestSupport

/// The journeys both backends must pass the same way: the built-in sandbox, and an Orders v2 API
/// over HTTP (the test server, a real process).
@Suite("northstar journeys on both backends")
struct BackendJourneyTests {
    static let units: JSONValue = [["amount": ["currencyCode": "USD", "value": "25.00"]]]

    @Test(
        "create and capture; an existing order captured or authorized, then refused a second time as Orders v2 does",
        arguments: [false, true])
    func ordersOnBothBackends(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let created = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": visa])
        #expect(created["status"] == "COMPLETED")
        #expect(created["transaction"]?["kind"] == "CAPTURE")
        #expect(created["card"]?["lastDigits"] == "7321")
        for intent in ["CAPTURE", "AUTHORIZE"] {
            let order = try await client.call(
                "sandbox.northstar.createOrder", ["intent": .string(intent), "purchaseUnits": Self.units])
            #expect(order["status"] == "CREATED")
            let id = try #require(order["orderID"])
            let executed = try await client.call("northstar.executeOrder", ["orderID": id, "card": visa])
            #expect(executed["status"] == "COMPLETED" && executed["transaction"]?["kind"] == .string(intent))
            #expect(try await client.call("sandbox.northstar.getOrder", ["orderID": id])["status"] == "COMPLETED")
            let again = await client.error("northstar.executeOrder", ["orderID": id, "card": visa])
            let expected: NorthstarErrorKind = intent == "CAPTURE" ? .orderAlreadyCaptured : .orderAlreadyAuthorized
            #expect(again?.code == expected.code)
            #expect(again?.data?["type"] == .string(expected.rawValue))
        }
        #expect(try await fixture.violations() == "")
    }

    @Test("a multi-unit order's transaction is the order's total on both backends", arguments: [false, true])
    func multiUnitTotal(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let units: JSONValue = [
            ["referenceId": "books", "amount": ["currencyCode": "USD", "value": "230.00"]],
            ["referenceId": "wrap", "amount": ["currencyCode": "USD", "value": "5.00"]],
        ]
        let order = try await client.call("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": units], "card": visa])
        #expect(order["transaction"]?["amount"] == ["currencyCode": "USD", "value": "235.00"])
        let mixed: JSONValue = [
            ["referenceId": "a", "amount": ["currencyCode": "USD", "value": "1.00"]],
            ["referenceId": "b", "amount": ["currencyCode": "EUR", "value": "1.00"]],
        ]
        let refused = await client.error("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": mixed], "card": visa])
        #expect(refused?.data?["details"]?[0]?["issue"] == "MULTI_CURRENCY_ORDER")
        #expect(try await fixture.violations() == "")
    }

    @Test("both spellings of the purchase units, on executeOrder and createOrder; never both", arguments: [false, true])
    func purchaseUnitSpellings(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let created = try await client.call(
            "northstar.executeOrder", ["orderRequest": ["purchaseUnits": Self.units], "card": visa])
        #expect(created["status"] == "COMPLETED")
        #expect(created["purchaseUnits"]?[0]?["amount"]?["value"] == "25.00")
        let order = try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnitList": Self.units])
        #expect(order["status"] == "CREATED")
        let both = await client.error(
            "northstar.executeOrder",
            ["orderRequest": ["purchaseUnits": Self.units, "purchaseUnitList": Self.units], "card": visa])
        #expect(both?.code == .invalidParams)
        #expect(await client.error("sandbox.northstar.createOrder", ["intent": "CAPTURE"])?.code == .invalidParams)
        #expect(try await fixture.violations() == "")
    }

    @Test(
        "3-D Secure after create-and-execute: the order's id, status and payer-action link are in data", arguments: [false, true])
    func threeDSecureData(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let pending = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("12.00"), "card": card("4000000000003220")])
        #expect(pending?.code == NorthstarErrorKind.payerActionRequired.code)
        let id = try #require(pending?.data?["orderID"])
        #expect(id.stringValue?.count == 17)
        #expect(pending?.data?["orderStatus"] == "PAYER_ACTION_REQUIRED")
        #expect(pending?.data?["links"]?[0]?["rel"] == "payer-action")
        // The order is there to look at, and (on the sandbox) to complete and execute by its id.
        #expect(try await client.call("sandbox.northstar.getOrder", ["orderID": id])["status"] == "PAYER_ACTION_REQUIRED")
        if !http {
            _ = try await client.call("sandbox.northstar.completePayerAction", ["orderID": id])
            #expect(try await client.call("northstar.executeOrder", ["orderID": id])["status"] == "COMPLETED")
        }
        #expect(try await fixture.violations() == "")
    }

    @Test("declined and expired cards, unknown orders, validation, bad input: the same errors", arguments: [false, true])
    func errorsOnBothBackends(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let declined = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4000000000000002")])
        #expect(declined?.code == NorthstarErrorKind.instrumentDeclined.code)
        #expect(declined?.data?["type"] == "INSTRUMENT_DECLINED")
        let expired = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4000000000000069")])
        #expect(expired?.code == NorthstarErrorKind.cardExpired.code)
        #expect(
            await client.error("northstar.executeOrder", ["orderID": "AAAAAAAAAAAAAAAAA", "card": visa])?.code
                == NorthstarErrorKind.orderNotFound.code)
        let decimals = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.5", "JPY"), "card": visa])
        #expect(decimals?.code == NorthstarErrorKind.unprocessable.code)
        #expect(
            await client.error(
                "northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4032036247327322")])?.code
                == NorthstarErrorKind.unprocessable.code)
        let order = try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": Self.units])
        let id = try #require(order["orderID"])
        #expect(try await client.call("northstar.validate", ["orderID": id, "card": visa])["status"] == "APPROVED")
        #expect(try await client.call("northstar.executeOrder", ["orderID": id])["status"] == "COMPLETED")
        #expect(try await fixture.violations() == "")
    }

    @Test("HTTP: an expired token is renewed once; PayPal-Request-Id on every POST; a 500 and a hang are errors, not crashes")
    func httpOnly() async throws {
        let fixture = try await NorthstarFixture(http: true, requestTimeout: 5)  // the hang ends with it
        let client = try await fixture.connect()
        let orders = try #require(fixture.orders)
        _ = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        try await orders.control(["expireTokens": true])
        #expect(
            try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("2.00"), "card": visa])["status"]
                == "COMPLETED")
        let posts = try await orders.requests().filter { $0["method"] as? String == "POST" }
        #expect(!posts.isEmpty && posts.allSatisfy { ($0["requestId"] as? String)?.isEmpty == false })
        try await orders.control(["fail500": 1])
        #expect(
            await client.error("northstar.executeOrder", ["orderRequest": orderRequest("3.00"), "card": visa])?.code
                == NorthstarErrorKind.processorError.code)
        try await orders.control(["hang": 1])
        let hung = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("4.00"), "card": visa])
        #expect(hung?.code == NorthstarErrorKind.backendUnavailable.code)
        // The same idempotency key answers the same order without a second order at the API.
        let first = try await client.call(
            "northstar.executeOrder", ["orderRequest": orderRequest("5.00"), "card": visa, "_meta": ["idempotencyKey": "k-1"]])
        let again = try await client.call(
            "northstar.executeOrder", ["orderRequest": orderRequest("5.00"), "card": visa, "_meta": ["idempotencyKey": "k-1"]])
        #expect(first["orderID"] == again["orderID"])
        #expect(
            await client.error(
                "northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "nonce": "tokencc_aaaaaaaaaaaaaaaaaaaaaaaa"])?
                .code == NorthstarErrorKind.unprocessable.code)
    }

    @Test("HTTP configuration: credentials required, wrong secret refused, secrets never stored")
    func httpConfiguration() async throws {
        let fixture = try await NorthstarFixture(http: true)
        let client = try await fixture.connect(configured: false)
        let orders = try #require(fixture.orders)
        #expect(
            await client.error("northstar.configure", ["clientID": "c", "environment": .string(orders.baseURL)])?.code
                == NorthstarErrorKind.unprocessable.code)
        #expect(
            await client.error("northstar.configure", ["clientID": "c", "environment": "ftp://x"])?.code
                == NorthstarErrorKind.unprocessable.code)
        _ = try await client.call(
            "northstar.configure", ["clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": "wrong"])
        let refused = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(refused?.code == NorthstarErrorKind.notConfigured.code)
        _ = try await client.call(
            "northstar.configure",
            ["clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": "test-secret"])
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.isEmpty && !text.contains("test-secret") && !text.contains("4032036247327321"))
    }
}
