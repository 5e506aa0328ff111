import Foundation
import NorthstarService
import PayRPCCore
import PayRPCJSON
import Testing
import PayRPCTestSupport

/// The journeys both backends must pass the same way: the built-in sandbox, and an Orders v2 API
/// over HTTP (the test server, a real process).
@Suite("northstar journeys on both backends")
struct BackendJourneyTests {
    static let units: JSONValue = [["amount": ["currencyCode": "USD", "value": "25.00"]]]

    @Test("create and capture; an existing order captured or authorized, then refused a second time", arguments: [false, true])
    func ordersOnBothBackends(_ http: Bool) async throws {
        let client = try await NorthstarFixture(http: http).connect()
        let created = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": visa])
        #expect(created["status"] == "COMPLETED")
        #expect(created["transaction"]?["kind"] == "CAPTURE")
        #expect(created["card"]?["lastDigits"] == "7321")
        for intent in ["CAPTURE", "AUTHORIZE"] {
            let order = try await client.call("sandbox.northstar.createOrder", ["intent": .string(intent), "purchaseUnits": Self.units])
            #expect(order["status"] == "CREATED")
            let id = try #require(order["orderID"])
            let executed = try await client.call("northstar.executeOrder", ["orderID": id, "card": visa])
            #expect(executed["status"] == "COMPLETED" && executed["transaction"]?["kind"] == .string(intent))
            #expect(try await client.call("sandbox.northstar.getOrder", ["orderID": id])["status"] == "COMPLETED")
            #expect(await client.error("northstar.executeOrder", ["orderID": id, "card": visa])?.code == NorthstarErrorKind.orderAlreadyCaptured.code)
        }
    }

    @Test("declined and expired cards, unknown orders, validation, bad input: the same errors", arguments: [false, true])
    func errorsOnBothBackends(_ http: Bool) async throws {
        let client = try await NorthstarFixture(http: http).connect()
        let declined = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4000000000000002")])
        #expect(declined?.code == NorthstarErrorKind.instrumentDeclined.code)
        #expect(declined?.data?["type"] == "INSTRUMENT_DECLINED")
        let expired = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4000000000000069")])
        #expect(expired?.code == NorthstarErrorKind.cardExpired.code)
        #expect(await client.error("northstar.executeOrder", ["orderID": "AAAAAAAAAAAAAAAAA", "card": visa])?.code == NorthstarErrorKind.orderNotFound.code)
        let decimals = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.5", "JPY"), "card": visa])
        #expect(decimals?.code == NorthstarErrorKind.unprocessable.code)
        #expect(await client.error("northstar.executeOrder", ["orderRequest": orderRequest("10.00"), "card": card("4032036247327322")])?.code == NorthstarErrorKind.unprocessable.code)
        let order = try await client.call("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": Self.units])
        let id = try #require(order["orderID"])
        #expect(try await client.call("northstar.validate", ["orderID": id, "card": visa])["status"] == "APPROVED")
        #expect(try await client.call("northstar.executeOrder", ["orderID": id])["status"] == "COMPLETED")
    }

    @Test("HTTP: an expired token is renewed once; PayPal-Request-Id on every POST; a 500 and a hang are errors, not crashes")
    func httpOnly() async throws {
        let fixture = try NorthstarFixture(http: true)
        let client = try await fixture.connect()
        let orders = try #require(fixture.orders)
        _ = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        try await orders.control(["expireTokens": true])
        #expect(try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("2.00"), "card": visa])["status"] == "COMPLETED")
        let posts = try await orders.requests().filter { $0["method"] as? String == "POST" }
        #expect(!posts.isEmpty && posts.allSatisfy { ($0["requestId"] as? String)?.isEmpty == false })
        try await orders.control(["fail500": 1])
        #expect(await client.error("northstar.executeOrder", ["orderRequest": orderRequest("3.00"), "card": visa])?.code == NorthstarErrorKind.processorError.code)
        try await orders.control(["hang": 1])
        let hung = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("4.00"), "card": visa])
        #expect(hung?.code == NorthstarErrorKind.backendUnavailable.code)
        // The same idempotency key answers the same order without a second order at the API.
        let first = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("5.00"), "card": visa, "_meta": ["idempotencyKey": "k-1"]])
        let again = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("5.00"), "card": visa, "_meta": ["idempotencyKey": "k-1"]])
        #expect(first["orderID"] == again["orderID"])
        #expect(await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "nonce": "tokencc_aaaaaaaaaaaaaaaaaaaaaaaa"])?.code == NorthstarErrorKind.unprocessable.code)
    }

    @Test("HTTP configuration: credentials required, wrong secret refused, secrets never stored")
    func httpConfiguration() async throws {
        let fixture = try NorthstarFixture(http: true)
        let client = try await fixture.connect(configured: false)
        let orders = try #require(fixture.orders)
        #expect(await client.error("northstar.configure", ["clientID": "c", "environment": .string(orders.baseURL)])?.code == NorthstarErrorKind.unprocessable.code)
        #expect(await client.error("northstar.configure", ["clientID": "c", "environment": "ftp://x"])?.code == NorthstarErrorKind.unprocessable.code)
        _ = try await client.call("northstar.configure", ["clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": "wrong"])
        let refused = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(refused?.code == NorthstarErrorKind.notConfigured.code)
        _ = try await client.call("northstar.configure", ["clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": "test-secret"])
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) {
            bytes += (try? Data(contentsOf: fixture.directory.appendingPathComponent(name))) ?? Data()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.isEmpty && !text.contains("test-secret") && !text.contains("4032036247327321"))
    }
}
