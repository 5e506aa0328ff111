import Foundation
import NorthstarService
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit
import Testing
import PayRPCTestSupport

/// Authorize now, capture later (`northstar.captureAuthorization`), on the sandbox and against the
/// test Orders v2 / Payments v2 server alike.
@Suite("northstar: capturing an authorization, on both backends")
struct CaptureAuthorizationTests {
    /// An `AUTHORIZE` order of `value` EUR, executed with `card`: its authorization's id.
    static func authorize(_ client: TestConnection, _ value: String = "30.00", card: JSONValue = visa) async throws -> JSONValue {
        let order = try await client.call(
            "sandbox.northstar.createOrder",
            [
                "intent": "AUTHORIZE", "purchaseUnits": [["amount": ["currencyCode": "EUR", "value": .string(value)]]],
            ])
        let authorized = try await client.call("northstar.executeOrder", ["orderID": order["orderID"] ?? .null, "card": card])
        #expect(authorized["transaction"]?["kind"] == "AUTHORIZE")
        #expect(authorized["transaction"]?["status"] == "CREATED")
        #expect(authorized["transaction"]?["expiresAt"] != nil)
        return try #require(authorized["transaction"]?["id"])
    }

    @Test("bad input first: no authorization id, a malformed one, an amount that is not one", arguments: [false, true])
    func badInput(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        #expect(await client.error("northstar.captureAuthorization", [:])?.code == .invalidParams)
        #expect(await client.error("northstar.captureAuthorization", ["authorizationID": "short"])?.code == .invalidParams)
        let id = try await Self.authorize(client)
        let decimals = await client.error(
            "northstar.captureAuthorization",
            [
                "authorizationID": id, "amount": ["currencyCode": "EUR", "value": "1.001"],
            ])
        #expect(decimals?.code == NorthstarErrorKind.unprocessable.code)
        #expect(decimals?.data?["details"]?[0]?["issue"] == "DECIMAL_PRECISION")
        let mismatch = await client.error(
            "northstar.captureAuthorization",
            [
                "authorizationID": id, "amount": ["currencyCode": "USD", "value": "1.00"],
            ])
        #expect(mismatch?.code == NorthstarErrorKind.unprocessable.code)
        #expect(mismatch?.data?["details"]?[0]?["issue"] == "AUTH_CAPTURE_CURRENCY_MISMATCH")
        let unknown = await client.error("northstar.captureAuthorization", ["authorizationID": "AAAAAAAAAAAAAAAAA"])
        #expect(unknown?.code == NorthstarErrorKind.authorizationNotFound.code)
        #expect(unknown?.data?["httpStatus"] == 404)
        #expect(try await fixture.violations() == "")
    }

    @Test(
        "a part, then more than remains is refused, then the rest by a final capture, then nothing more",
        arguments: [false, true])
    func partialThenFinal(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let id = try await Self.authorize(client)
        let first = try await client.call(
            "northstar.captureAuthorization",
            [
                "authorizationID": id, "amount": ["currencyCode": "EUR", "value": "20.00"], "invoiceId": "INV-1",
            ])
        #expect(first["status"] == "COMPLETED")
        #expect(first["amount"] == ["currencyCode": "EUR", "value": "20.00"])
        #expect(first["finalCapture"] == .bool(false))
        #expect(first["authorizationID"] == id)
        #expect(first["orderID"]?.stringValue?.count == 17)
        #expect(first["captureID"]?.stringValue?.count == 17 && first["captureID"] != id)
        let over = await client.error(
            "northstar.captureAuthorization",
            [
                "authorizationID": id, "amount": ["currencyCode": "EUR", "value": "10.01"],
            ])
        #expect(over?.code == NorthstarErrorKind.captureAmountExceeded.code)
        #expect(over?.data?["type"] == "MAX_CAPTURE_AMOUNT_EXCEEDED")
        let rest = try await client.call("northstar.captureAuthorization", ["authorizationID": id, "finalCapture": true])
        #expect(rest["amount"] == ["currencyCode": "EUR", "value": "10.00"])
        #expect(rest["finalCapture"] == .bool(true))
        let again = await client.error("northstar.captureAuthorization", ["authorizationID": id])
        #expect(again?.code == NorthstarErrorKind.authorizationAlreadyCaptured.code)
        // The order shows its authorization captured.
        let order = try await client.call("sandbox.northstar.getOrder", ["orderID": first["orderID"] ?? .null])
        #expect(order["transaction"]?["status"] == "CAPTURED")
        #expect(try await fixture.violations() == "")
    }

    @Test("a capture without amount takes it all; a partial final capture closes the authorization", arguments: [false, true])
    func wholeAndFinal(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let whole = try await Self.authorize(client, "12.34")
        let captured = try await client.call("northstar.captureAuthorization", ["authorizationID": whole])
        #expect(captured["amount"] == ["currencyCode": "EUR", "value": "12.34"])
        #expect(captured["finalCapture"] == .bool(true))
        let part = try await Self.authorize(client, "50.00")
        _ = try await client.call(
            "northstar.captureAuthorization",
            [
                "authorizationID": part, "amount": ["currencyCode": "EUR", "value": "5.00"], "finalCapture": true,
            ])
        #expect(
            await client.error(
                "northstar.captureAuthorization",
                [
                    "authorizationID": part, "amount": ["currencyCode": "EUR", "value": "5.00"],
                ])?.code == NorthstarErrorKind.authorizationAlreadyCaptured.code)
        #expect(try await fixture.violations() == "")
    }

    @Test("an expired authorization cannot be captured (29 days on the sandbox clock)", arguments: [false, true])
    func expired(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let id = try await Self.authorize(client)
        try await fixture.expireAuthorizations()
        let error = await client.error("northstar.captureAuthorization", ["authorizationID": id])
        #expect(error?.code == NorthstarErrorKind.authorizationExpired.code)
        #expect(error?.data?["type"] == "AUTHORIZATION_EXPIRED")
        #expect(try await fixture.violations() == "")
    }

    @Test("the card that refuses captures is authorized, and its capture refused", arguments: [false, true])
    func refusedCapture(_ http: Bool) async throws {
        let fixture = try await NorthstarFixture(http: http)
        let client = try await fixture.connect()
        let id = try await Self.authorize(client, card: card("4000000000000341"))
        let error = await client.error("northstar.captureAuthorization", ["authorizationID": id])
        #expect(error?.code == NorthstarErrorKind.transactionRefused.code)
        #expect(try await fixture.violations() == "")
    }

    @Test("sandbox: an authorization is still capturable a day before it expires; the failure is injectable")
    func sandboxClockAndInjection() async throws {
        let fixture = try await NorthstarFixture()
        let client = try await fixture.connect()
        let id = try await Self.authorize(client)
        try fixture.sandbox.advance(profile: "default", by: 28 * 86400)
        try fixture.failNext("northstar.captureAuthorization", "AUTHORIZATION_EXPIRED")
        #expect(
            await client.error("northstar.captureAuthorization", ["authorizationID": id])?.code
                == NorthstarErrorKind.authorizationExpired.code)
        #expect(try await client.call("northstar.captureAuthorization", ["authorizationID": id])["status"] == "COMPLETED")
    }
}
