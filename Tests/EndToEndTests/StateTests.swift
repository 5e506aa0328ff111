import Foundation
import PayRPCJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Idempotency through the real SQLite store, across a restart; secrets never in the store or
/// the logs in clear.
@Suite struct StateTests {
    static let submit: JSONValue = [
        "amount": "7.00", "currency": "GBP", "reference": "idempotent order",
        "_meta": ["idempotencyKey": "order-7"],
    ]

    @Test func idempotentCallsAnswerTheFirstAnswerAlsoAfterARestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-idem-\(UUID().uuidString)")
        let first = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        let original = try #require(await first.request("pbba.submitPaymentRequest", Self.submit)?["result"])
        let repeated = try #require(await first.request("pbba.submitPaymentRequest", Self.submit, id: "2")?["result"])
        #expect(repeated == original)
        first.closeInput()
        #expect(await first.waitForExit() == 0)

        let second = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await second.request("pbba.submitPaymentRequest", Self.submit)?["result"] == original)
        // The same key with other params is refused.
        let other: JSONValue = [
            "amount": "8.00", "currency": "GBP", "reference": "idempotent order",
            "_meta": ["idempotencyKey": "order-7"],
        ]
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

        let server = try await SpawnedServer(
            [
                "serve", "--stdio", "--log-level", "trace", "--sandbox-data", "tatra=\(sandboxFile.path)",
                "--auth-token-file", tokenFile.path,
            ], dataDirectory: data)
        _ = await server.request("rpc.hello", ["token": .string(authToken)])
        #expect(await server.request("tatra.authorize", ["pincode": .string(wrongPIN)])?["error"] != nil)
        #expect(await server.request("tatra.authorize", ["pincode": .string(pin)])?["result"] == .null)
        _ = await server.request(
            "tatra.executePayment", ["amount": "1.00", "contact": ["fullName": "Jana Nováková", "phones": ["+421900123456"]]])
        _ = await server.request("tatra.authorizePayment", ["pincode": .string(pin), "_meta": ["idempotencyKey": "pay-1"]])
        var tokens: [String] = []
        for index in 0..<3 {
            let params: JSONValue = [
                "amount": "2.00", "currency": "GBP", "reference": .string("secret \(index)"),
                "_meta": ["idempotencyKey": .string("secret-\(index)")],
            ]
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

    /// A data directory written by the version with hand-written cryptography (the store tests'
    /// fixture; see its README): the binary opens it, finds its records by their keyed hashes,
    /// and answers a repeat of the call whose sealed answer it cannot read with a declared error.
    @Test func aDataDirectoryOfTheEarlierVersionOpensAndItsUnreadableAnswersAreDeclared() async throws {
        let fixture = SpawnedServer.repositoryRoot.appendingPathComponent("Tests/PayRPCStoreTests/Fixtures/data-v1")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-v1-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: data)
        defer { try? FileManager.default.removeItem(at: data) }
        let secureToken = "577b29f4c7a82a17a2d829d4da4d0619184d2084"
        let params: JSONValue = [
            "amount": "7.00", "currency": "GBP", "reference": "order sealed by v1",
            "_meta": ["idempotencyKey": "sealed-by-v1"],
        ]

        let server = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        // The request stored under the secureToken's keyed hash is found: the same HMAC.
        #expect(await server.request("pbba.getPaymentStatus", ["secureToken": .string(secureToken)])?["result"] != nil)
        // The repeat matches the stored params' keyed hash; its answer cannot be read: -32005, not -32603.
        let repeated = await server.request("pbba.submitPaymentRequest", params)?["error"]
        #expect(repeated?["code"] == -32005)
        #expect(repeated?["message"] == "Idempotency answer unavailable")
        // A new key makes a new request, whose answer is sealed anew and replayed.
        let fresh: JSONValue = [
            "amount": "7.00", "currency": "GBP", "reference": "order sealed by v1",
            "_meta": ["idempotencyKey": "after-v1"],
        ]
        let first = try #require(await server.request("pbba.submitPaymentRequest", fresh)?["result"])
        #expect(await server.request("pbba.submitPaymentRequest", fresh)?["result"] == first)
        server.closeInput()
        #expect(await server.waitForExit() == 0)
        let unreadable = server.logText.split(separator: "\n").filter { $0.contains("sealed by an earlier version") }
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.contains("store.unreadableIdempotencyAnswers=1") == true)

        // Opened again: nothing left to replace, and the answer stays declared.
        let again = try await SpawnedServer(["serve", "--stdio"], dataDirectory: data)
        #expect(await again.request("pbba.submitPaymentRequest", params)?["error"]?["code"] == -32005)
        #expect(await again.request("pbba.submitPaymentRequest", fresh)?["result"] == first)
        again.closeInput()
        #expect(await again.waitForExit() == 0)
        #expect(!again.logText.contains("sealed by an earlier version"))
    }
}
