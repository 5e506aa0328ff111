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
        #expect(await server.request("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])?["error"]?["code"] == -33310)
        #expect(await server.request("northstar.configure", ["clientID": "e2e"])?["result"]?["clientID"] == "e2e")
        let created = await server.request("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])
        #expect(created?["result"]?["status"] == "COMPLETED")
        let order = await server.request("sandbox.northstar.createOrder", ["intent": "AUTHORIZE", "purchaseUnits": Self.units])
        let id = try #require(order?["result"]?["orderID"])
        let secure: JSONValue = ["number": "4000000000003220", "expiry": "2199-12"]
        let pending = await server.request("northstar.executeOrder", ["orderID": id, "card": secure])
        #expect(pending?["error"]?["data"]?["type"] == "PAYER_ACTION_REQUIRED")
        _ = await server.request("sandbox.northstar.completePayerAction", ["orderID": id])
        let authorized = await server.request("executeOrder", ["orderID": id])
        #expect(authorized?["result"]?["transaction"]?["kind"] == "AUTHORIZE")
        let nonce = try #require(await server.request("northstar.tokenizeCard", ["card": Self.visa])?["result"]?["nonce"]?.stringValue)
        #expect(await server.request("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "nonce": .string(nonce)])?["result"]?["status"] == "COMPLETED")
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

    @Test func theSameSeedGivesTheSameOrderIDs() async throws {
        func ids() async throws -> [JSONValue?] {
            let server = try await SpawnedServer(["serve", "--stdio", "--seed", "7"])
            _ = await server.request("northstar.configure", ["clientID": "e2e"])
            let first = await server.request("northstar.executeOrder", ["orderRequest": ["purchaseUnitList": Self.units], "card": Self.visa])
            let second = await server.request("sandbox.northstar.createOrder", ["intent": "CAPTURE", "purchaseUnits": Self.units])
            server.closeInput()
            _ = await server.waitForExit()
            return [first?["result"]?["orderID"], first?["result"]?["transaction"]?["id"], second?["result"]?["orderID"]]
        }
        let first = try await ids()
        #expect(first.allSatisfy { $0 != nil })
        #expect(try await ids() == first)
    }
}
