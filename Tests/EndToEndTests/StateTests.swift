import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Idempotency through the real SQLite store, across a restart; secrets never in the store or
/// the logs in clear.
@Suite struct StateTests {
    static let submit: JSONValue = ["amount": "7.00", "currency": "GBP", "reference": "idempotent order",
                                    "_meta": ["idempotencyKey": "order-7"]]

    @Test func idempotentCallsAnswerTheFirstAnswerAlsoAfterARestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-idem-\(UUID().uuidString)")
        let first = try SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        let original = try #require(await first.request("pbba.submitPaymentRequest", Self.submit)?["result"])
        let repeated = try #require(await first.request("pbba.submitPaymentRequest", Self.submit, id: "2")?["result"])
        #expect(repeated == original)
        first.closeInput()
        #expect(await first.waitForExit() == 0)

        let second = try SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await second.request("pbba.submitPaymentRequest", Self.submit)?["result"] == original)
        // The same key with other params is refused.
        let other: JSONValue = ["amount": "8.00", "currency": "GBP", "reference": "idempotent order",
                                "_meta": ["idempotencyKey": "order-7"]]
        #expect(await second.request("pbba.submitPaymentRequest", other)?["error"]?["code"] == -32005)
        // Another profile has keys of its own.
        _ = await second.request("rpc.hello", ["profile": "someone-else"])
        let theirs = await second.request("pbba.submitPaymentRequest", Self.submit)?["result"]
        #expect(theirs != nil && theirs != original)
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    @Test func secretsAreNeitherStoredNorLoggedInClear() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-secrets-\(UUID().uuidString)")
        // A sandbox whose PIN is a distinctive string, so a search for it cannot match by chance.
        let shipped = SpawnedServer.repositoryRoot.appendingPathComponent("Sources/TatraService/Resources/tatra-sandbox.json")
        var sandbox = try String(contentsOf: shipped, encoding: .utf8)
        let pin = "73916482", wrongPIN = "55172938"
        sandbox = sandbox.replacingOccurrences(of: #""pin": "1234""#, with: #""pin": "\#(pin)""#)
        #expect(sandbox.contains(pin))
        let sandboxFile = FileManager.default.temporaryDirectory.appendingPathComponent("tatra-\(UUID().uuidString).json")
        try sandbox.write(to: sandboxFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: sandboxFile) }
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        let authToken = "auth-token-8d41c2"
        try authToken.write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }

        let server = try SpawnedServer(["serve", "--stdio", "--log-level", "trace", "--sandbox-data", "tatra=\(sandboxFile.path)",
                                        "--auth-token-file", tokenFile.path], dataDirectory: data)
        _ = await server.request("rpc.hello", ["token": .string(authToken)])
        #expect(await server.request("tatra.authorize", ["pincode": .string(wrongPIN)])?["error"] != nil)
        #expect(await server.request("tatra.authorize", ["pincode": .string(pin)])?["result"] == .null)
        _ = await server.request("tatra.executePayment", ["amount": "1.00", "contact": ["fullName": "Jana Nováková", "phones": ["+421900123456"]]])
        _ = await server.request("tatra.authorizePayment", ["pincode": .string(pin), "_meta": ["idempotencyKey": "pay-1"]])
        var tokens: [String] = []
        for index in 0..<3 {
            let params: JSONValue = ["amount": "2.00", "currency": "GBP", "reference": .string("secret \(index)"),
                                     "_meta": ["idempotencyKey": .string("secret-\(index)")]]
            if let token = await server.request("pbba.submitPaymentRequest", params)?["result"]?["secureToken"]?.stringValue {
                tokens.append(token)
                _ = await server.request("pbba.openBankingApp", ["secureToken": .string(token)])
            }
        }
        #expect(tokens.count == 3)
        server.closeInput()
        #expect(await server.waitForExit() == 0)

        var stored = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) {
            stored.append(try Data(contentsOf: data.appendingPathComponent(name)))
        }
        #expect(stored.count > 0)
        let storedText = String(decoding: stored, as: UTF8.self)
        let logs = server.logText
        #expect(!logs.isEmpty)
        for secret in [pin, wrongPIN, authToken] + tokens {
            #expect(!storedText.contains(secret), "\(secret) is in the store")
            #expect(!logs.contains(secret), "\(secret) is in the log")
        }
    }
}
