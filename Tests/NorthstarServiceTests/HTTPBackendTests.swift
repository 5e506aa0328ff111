import Foundation
import NorthstarService
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import Testing
import PayRPCTestSupport
import PayRPCSQLite

/// The Orders v2 HTTP backend against the test server, which checks every request against PayPal's
/// own published OpenAPI documents: the token endpoint's failures, one token for concurrent calls,
/// lost answers that are not kept as a call's idempotent answer, the API's error details.
@Suite("northstar: the Orders v2 HTTP backend")
struct HTTPBackendTests {
    /// A fixture on the HTTP backend and a connection not configured yet.
    static func unconfigured() async throws -> (NorthstarFixture, OrdersBackend, TestConnection) {
        let fixture = try await NorthstarFixture(http: true)
        let orders = try #require(fixture.orders)
        return (fixture, orders, try await fixture.connect(configured: false))
    }

    static func configure(_ client: TestConnection, _ orders: OrdersBackend, secret: String = "test-secret") async throws {
        _ = try await client.call(
            "northstar.configure",
            [
                "clientID": "test-client", "environment": .string(orders.baseURL), "clientSecret": .string(secret),
            ])
    }

    @Test(
        "the token endpoint's failures are what they are: unreachable -33311, a 5xx the processor error, refused credentials -33310"
    )
    func tokenFailures() async throws {
        let (fixture, orders, client) = try await Self.unconfigured()
        try await Self.configure(client, orders)
        try await orders.control(["tokenDrop": 1])
        let dropped = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(dropped?.code == NorthstarErrorKind.backendUnavailable.code)
        #expect(dropped?.data?["message"]?.stringValue?.contains("oauth2/token") == true)
        try await orders.control(["tokenFail": 503, "count": 1])
        let failed = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(failed?.code == NorthstarErrorKind.processorError.code)
        #expect(failed?.data?["httpStatus"] == 503)
        try await Self.configure(client, orders, secret: "wrong")
        let refused = await client.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(refused?.code == NorthstarErrorKind.notConfigured.code)
        #expect(refused?.data?["details"]?[0]?["issue"] == "invalid_client")
        // None of the failures left anything behind: the next call works.
        try await Self.configure(client, orders)
        #expect(
            try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])["status"]
                == "COMPLETED")
        #expect(try await fixture.violations() == "")
    }

    @Test("concurrent calls on a fresh configuration fetch one token")
    func oneTokenForConcurrentCalls() async throws {
        let (fixture, orders, client) = try await Self.unconfigured()
        // The token endpoint answers late, so the calls all need the token while it is fetched.
        try await orders.control(["tokenDelay": 0.3])
        try await Self.configure(client, orders)
        let calls = 6
        let statuses = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            for index in 0..<calls {
                group.addTask {
                    try await client.call(
                        "northstar.executeOrder", ["orderRequest": orderRequest("\(index + 1).00"), "card": visa])["status"]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: "COMPLETED", count: calls))
        #expect(try await orders.tokenRequests() == 1)
        #expect(try await fixture.violations() == "")
    }

    @Test(
        "a lost answer is not a kept answer: the repeat with the same key sends the same PayPal-Request-Id and gets PayPal's",
        arguments: [("drop", NorthstarErrorKind.backendUnavailable), ("hang", .backendUnavailable), ("500", .processorError)])
    func lostAnswers(_ how: String, _ kind: NorthstarErrorKind) async throws {
        let fixture = try await NorthstarFixture(http: true, requestTimeout: how == "hang" ? 5 : 30)  // a hang ends with it
        let orders = try #require(fixture.orders)
        let client = try await fixture.connect()
        let key = "lost-\(how)"
        let params: JSONValue = ["orderRequest": orderRequest("7.00"), "card": visa, "_meta": ["idempotencyKey": .string(key)]]
        try await orders.control(["afterActing": how, "count": 1])
        let lost = await client.error("northstar.executeOrder", params)
        #expect(lost?.code == kind.code)
        // PayPal captured the order; the repeat learns it.
        let learnt = try await client.call("northstar.executeOrder", params)
        #expect(learnt["status"] == "COMPLETED")
        #expect(learnt["transaction"]?["kind"] == "CAPTURE")
        // Now that answer is the key's: a third call replays it without asking the API.
        let before = try await orders.requests().count
        #expect(try await client.call("northstar.executeOrder", params) == learnt)
        #expect(try await orders.requests().count == before)
        let posts = try await orders.requests().filter {
            $0["path"] as? String == "/v2/checkout/orders" && $0["method"] as? String == "POST"
        }
        #expect(posts.count == 2 && posts.allSatisfy { $0["requestId"] as? String == key })
        #expect(try await fixture.violations() == "")
    }

    @Test(
        "a key Orders v2 would refuse as PayPal-Request-Id (over 108 characters) is sent as its keyed hash, the same every time")
    func longKeys() async throws {
        let fixture = try await NorthstarFixture(http: true)
        let orders = try #require(fixture.orders)
        let client = try await fixture.connect()
        let key = String(repeating: "k", count: 200)
        let params: JSONValue = ["orderRequest": orderRequest("8.00"), "card": visa, "_meta": ["idempotencyKey": .string(key)]]
        try await orders.control(["afterActing": "drop", "count": 1])
        #expect(await client.error("northstar.executeOrder", params)?.code == NorthstarErrorKind.backendUnavailable.code)
        #expect(try await client.call("northstar.executeOrder", params)["status"] == "COMPLETED")
        let ids = try await orders.requests().filter { $0["method"] as? String == "POST" }.compactMap {
            $0["requestId"] as? String
        }
        #expect(ids.count == 2 && ids[0] == ids[1] && ids[0].count == 64 && ids[0] != key)
        #expect(try await fixture.violations() == "")
    }

    @Test("the order-id form and a capture are repeated the same way after a lost answer")
    func lostAnswersOfExistingOrdersAndCaptures() async throws {
        let fixture = try await NorthstarFixture(http: true)
        let orders = try #require(fixture.orders)
        let client = try await fixture.connect()
        let order = try await client.call(
            "sandbox.northstar.createOrder",
            [
                "intent": "AUTHORIZE", "purchaseUnits": [["amount": ["currencyCode": "USD", "value": "40.00"]]],
            ])
        let execute: JSONValue = ["orderID": order["orderID"] ?? .null, "card": visa, "_meta": ["idempotencyKey": "auth-1"]]
        try await orders.control(["afterActing": "drop", "count": 1])
        #expect(await client.error("northstar.executeOrder", execute)?.code == NorthstarErrorKind.backendUnavailable.code)
        let authorized = try await client.call("northstar.executeOrder", execute)
        let authorization = try #require(authorized["transaction"]?["id"])
        let capture: JSONValue = ["authorizationID": authorization, "_meta": ["idempotencyKey": "capture-1"]]
        try await orders.control(["afterActing": "500", "count": 1])
        #expect(await client.error("northstar.captureAuthorization", capture)?.code == NorthstarErrorKind.processorError.code)
        let captured = try await client.call("northstar.captureAuthorization", capture)
        #expect(captured["amount"] == ["currencyCode": "USD", "value": "40.00"])
        // A decided failure is kept: the same key answers it again without asking the API.
        let again: JSONValue = ["authorizationID": authorization, "_meta": ["idempotencyKey": "capture-2"]]
        #expect(
            await client.error("northstar.captureAuthorization", again)?.code
                == NorthstarErrorKind.authorizationAlreadyCaptured.code)
        let before = try await orders.requests().count
        #expect(
            await client.error("northstar.captureAuthorization", again)?.code
                == NorthstarErrorKind.authorizationAlreadyCaptured.code)
        #expect(try await orders.requests().count == before)
        #expect(try await fixture.violations() == "")
    }

    @Test("a call before configure, repeated with the same key once configured, runs")
    func notConfiguredIsNotKept() async throws {
        let (fixture, orders, client) = try await Self.unconfigured()
        let params: JSONValue = ["orderRequest": orderRequest("3.00"), "card": visa, "_meta": ["idempotencyKey": "early"]]
        #expect(await client.error("northstar.executeOrder", params)?.code == NorthstarErrorKind.notConfigured.code)
        try await Self.configure(client, orders)
        #expect(try await client.call("northstar.executeOrder", params)["status"] == "COMPLETED")
        #expect(try await fixture.violations() == "")
    }

    @Test("the API's error details keep their location; an answer without the card's expiry has none")
    func detailsAndSummaries() async throws {
        let fixture = try await NorthstarFixture(http: true)
        let client = try await fixture.connect()
        let missing = await client.error("northstar.executeOrder", ["orderID": "AAAAAAAAAAAAAAAAA", "card": visa])
        #expect(missing?.data?["details"]?[0]?["location"] == "path")
        #expect(missing?.data?["details"]?[0]?["field"] == "order_id")
        let declined = await client.error(
            "northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": card("4000000000000002")])
        #expect(declined?.data?["details"]?[0]?["location"] == "body")
        let order = try await client.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(order["card"]?["lastDigits"] == "7321")
        #expect(order["card"]?["expiry"] == nil)
        #expect(try await fixture.violations() == "")
    }

    @Test("a configuration given through one gateway serves through another on the same store, its secrets stored only sealed")
    func configurationCrossesGateways() async throws {
        let (fixture, orders, client) = try await Self.unconfigured()
        try await Self.configure(client, orders, secret: "test-secret")
        let second = try fixture.secondGateway().connect(keepingAlive: fixture)
        #expect(
            try await second.call("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])["status"]
                == "COMPLETED")
        let stored = try await fixture.store.export(profile: "default").jsonText
        #expect(!stored.contains("test-secret") && stored.contains("sealedClientSecret"), "\(stored)")
        // Configured anew through the first: the second makes its client again from the store.
        try await Self.configure(client, orders, secret: "wrong")
        let refused = await second.error("northstar.executeOrder", ["orderRequest": orderRequest("1.00"), "card": visa])
        #expect(refused?.data?["details"]?[0]?["issue"] == "invalid_client")
        #expect(try await fixture.violations() == "")
    }
}
