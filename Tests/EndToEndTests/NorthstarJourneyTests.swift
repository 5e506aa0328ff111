import Foundation
import PayRPCJSON
import Testing

/// The Northstar card client against the spawned binary: both forms of `executeOrder`, 3-D
/// Secure, a nonce, seeded ids across two servers, and no card data in the store or the log.
@Suite struct NorthstarJourneyTests {
    static let visa: JSONValue = ["number": "4032036247327321", "expiry": "2199-12", "securityCode": "123"]
    static let units: JSONValue = [["amount": ["currencyCode": "USD", "value": "10.00"]]]

    @Test func bothFormsThreeDSecureAndANonceOverStdio() async throws {
        let server = try await SpawnedServer(["serve", "--stdio", "--log-level", "trace"])
        #expect(
            await server.request(
                "northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])?["error"]?[
                    "code"] == -33310)
        #expect(await server.request("northstar.configure", ["clientID": "e2e"])?["result"]?["clientID"] == "e2e")
        let created = await server.request(
            "northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])
        #expect(created?["result"]?["status"] == "COMPLETED")
        let order = await server.request("sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnits": Self.units])
        let id = try #require(order?["result"]?["orderID"])
        let secure: JSONValue = ["number": "4000000000003220", "expiry": "2199-12"]
        let pending = await server.request("northstar.executeOrder", ["orderID": id, "card": secure])
        #expect(pending?["error"]?["data"]?["type"] == "PAYER_ACTION_REQUIRED")
        _ = await server.request("sandbox.northstar.completePayerAction", ["orderID": id])
        let authorized = await server.request("executeOrder", ["orderID": id])
        #expect(authorized?["result"]?["transaction"]?["kind"] == "AUTHORIZE")
        let nonce = try #require(
            await server.request("northstar.tokenizeCard", ["card": Self.visa])?["result"]?["nonce"]?.stringValue)
        #expect(
            await server.request(
                "northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "nonce": .string(nonce)])?[
                    "result"]?["status"] == "COMPLETED")
        server.closeInput()
        #expect(await server.waitForExit() == 0)

        var stored = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory.path) {
            stored.append((try? Data(contentsOf: server.dataDirectory.appendingPathComponent(name))) ?? Data())
        }
        let storedText = String(decoding: stored, as: UTF8.self)
        let logs = server.logText
        #expect(!logs.isEmpty && !storedText.isEmpty)
        for secret in ["4032036247327321", "4000000000003220", nonce, "\"securityCode\":\"123\""] {
            #expect(!storedText.contains(secret), "\(secret) in the store")
            #expect(!logs.contains(secret), "\(secret) in the log")
        }
    }

    @Test func authorizeNowCaptureLaterThreeDSecureDataAndInjectedTokenizeFailures() async throws {
        let server = try await SpawnedServer(["serve", "--stdio"])
        _ = await server.request("northstar.configure", ["clientID": "e2e"])
        // The API's spelling of the purchase units is accepted by executeOrder, the SDK's by createOrder.
        let order = await server.request(
            "sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnitList": Self.units])
        let id = try #require(order?["result"]?["orderID"])
        let authorized = await server.request("northstar.executeOrder", ["orderID": id, "card": Self.visa])
        let authorization = try #require(authorized?["result"]?["transaction"]?["id"])
        #expect(await server.request("northstar.executeOrder", ["orderID": id, "card": Self.visa])?["error"]?["code"] == -33312)
        let part = await server.request(
            "northstar.captureAuthorization",
            [
                "authorizationID": authorization, "amount": ["currencyCode": "USD", "value": "4.00"],
            ])
        #expect(part?["result"]?["amount"]?["value"] == "4.00")
        #expect(
            await server.request(
                "northstar.captureAuthorization",
                [
                    "authorizationID": authorization, "amount": ["currencyCode": "USD", "value": "6.01"],
                ])?["error"]?["code"] == -33316)
        #expect(
            await server.request("captureAuthorization", ["authorizationID": authorization, "finalCapture": true])?["result"]?[
                "amount"]?["value"] == "6.00")
        #expect(
            await server.request("northstar.captureAuthorization", ["authorizationID": authorization])?["error"]?["code"]
                == -33315)

        let secure: JSONValue = ["number": "4000000000003220", "expiry": "2199-12"]
        let pending = await server.request(
            "northstar.executeOrder", ["orderRequest": ["purchaseUnits": Self.units], "card": secure])
        let pendingID = try #require(pending?["error"]?["data"]?["orderID"])
        #expect(pending?["error"]?["data"]?["orderStatus"] == "PAYER_ACTION_REQUIRED")
        _ = await server.request("sandbox.northstar.completePayerAction", ["orderID": pendingID])
        #expect(await server.request("northstar.executeOrder", ["orderID": pendingID])?["result"]?["status"] == "COMPLETED")

        for error in ["BACKEND_UNAVAILABLE", "INTERNAL_SERVICE_ERROR"] {
            _ = await server.request("sandbox.failNext", ["method": "northstar.tokenizeCard", "error": .string(error)])
            #expect(
                await server.request("northstar.tokenizeCard", ["card": Self.visa])?["error"]?["data"]?["type"] == .string(error))
        }
        #expect(await server.request("northstar.tokenizeCard", ["card": Self.visa])?["result"]?["nonce"] != nil)
        server.closeInput()
        #expect(await server.waitForExit() == 0)
    }

    @Test func theSameSeedGivesTheSameOrderIDs() async throws {
        func ids() async throws -> [JSONValue?] {
            let server = try await SpawnedServer(["serve", "--stdio", "--seed", "7"])
            _ = await server.request("northstar.configure", ["clientID": "e2e"])
            let first = await server.request(
                "northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])
            let second = await server.request(
                "sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": Self.units])
            server.closeInput()
            _ = await server.waitForExit()
            return [first?["result"]?["orderID"], first?["result"]?["transaction"]?["id"], second?["result"]?["orderID"]]
        }
        let first = try await ids()
        #expect(first.allSatisfy { $0 != nil })
        #expect(try await ids() == first)
    }
}
