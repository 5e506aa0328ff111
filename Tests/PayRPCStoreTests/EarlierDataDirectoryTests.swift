import Foundation
import PayRPCCore
import PayRPCJSON
@testable import PayRPCStore
import PayRPCTestSupport
import Testing
import GRDB
import Logging
@testable import PayRPCSecrets
@testable import PayRPCSQLite

/// A data directory written by the version whose secrets were hand-written (see
/// `Fixtures/README.md`) opens with OpenSSL's: the same functions give the same hashes, and what
/// cannot be read any more is replaced by a declared answer with one log line.
@Suite("A data directory of the earlier version")
struct EarlierDataDirectoryTests {
    /// What the earlier version computed with the fixture's key (`Fixtures/data-v1.json`).
    struct Known: Decodable {
        var pin, pinHash, card, cardHash, secureToken, secureTokenHash, sealed, sealedText: String
        var profile, idempotencyKey, method, paramsDigest, createdAt: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func known() throws -> Known {
        try JSONDecoder().decode(Known.self, from: Data(contentsOf: fixtures.appendingPathComponent("data-v1.json")))
    }

    /// A copy of the fixture directory, so the committed files are never changed.
    static func copy() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in [SecretHasher.keyFileName, SQLiteStateStore.fileName] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("data-v1").appendingPathComponent(name),
                to: directory.url.appendingPathComponent(name))
        }
        return directory
    }

    @Test("keyed hashes are bit-identical under the earlier server key")
    func hashesKeepVerifying() throws {
        let known = try Self.known()
        let directory = try Self.copy()
        defer { directory.remove() }
        let hasher = try SecretHasher.loadOrCreate(in: directory.url)
        #expect(try hasher.keyedHash(known.card, context: "card") == known.cardHash)
        #expect(hasher.matches(known.card, keyedHash: known.cardHash, context: "card"))
        #expect(try hasher.keyedHash(known.secureToken, context: "pbba.secureToken") == known.secureTokenHash)
        // The earlier sealed format is recognised, and opens to nothing rather than to garbage.
        #expect(!SecretHasher.isSealedInCurrentFormat(known.sealed))
        #expect(hasher.unseal(known.sealed, context: "idempotency.outcome") == nil)
    }

    @Test("the earlier sealed answer becomes a declared -32005 with one log line; keyed hashes still find the records")
    func sealedAnswersAreReplaced() async throws {
        let known = try Self.known()
        let directory = try Self.copy()
        defer { directory.remove() }
        let logs = CapturingLogHandler.Store()
        var configuration = StoreConfiguration()
        configuration.idempotencyRetention = .seconds(24 * 60 * 60)
        let store = try SQLiteStateStore(
            directory: directory.url, configuration: configuration,
            logger: CapturingLogHandler.logger("payrpc.store.tests", into: logs))
        let warnings = logs.all.filter { $0.0 >= .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.1.contains("sealed by an earlier version") == true)
        #expect(warnings.first?.2["store.unreadableIdempotencyAnswers"] == "1")

        // The PBBA request is stored under the secureToken's keyed hash: the same key finds it.
        let request = try await store.get(
            profile: "pbba-merchant-backend", namespace: "pbba.requests", key: known.secureTokenHash)
        #expect(request?["reference"] == "order sealed by v1")

        // The repeat of the call matches the stored params' keyed hash and gets the declared error.
        let now = try #require(RFC3339.parse(known.createdAt)).addingTimeInterval(60)
        let claim = try await store.claim(
            profile: known.profile, key: known.idempotencyKey, method: known.method,
            paramsDigest: known.paramsDigest, now: now)
        guard case .replay(let outcome) = claim else {
            Issue.record("expected a replay of the declared error, got \(claim)")
            return
        }
        let answer = try JSONValue(parsing: "{\(outcome)}")
        #expect(answer["error"]?["code"] == -32005)
        #expect(answer["error"]?["message"] == "Idempotency answer unavailable")
        #expect(!outcome.contains(known.secureToken))
        // Other params with the same key are still a conflict, as before.
        #expect(
            try await store.claim(
                profile: known.profile, key: known.idempotencyKey, method: known.method,
                paramsDigest: "{}", now: now) == .conflict)
        try await store.close()

        // Resealed in the current format: opening again finds nothing to replace and logs nothing.
        let quiet = CapturingLogHandler.Store()
        let reopened = try SQLiteStateStore(
            directory: directory.url, configuration: configuration,
            logger: CapturingLogHandler.logger("payrpc.store.tests", into: quiet))
        #expect(quiet.messages(atLeast: .warning).isEmpty)
        #expect(
            try await reopened.claim(
                profile: known.profile, key: known.idempotencyKey, method: known.method,
                paramsDigest: known.paramsDigest, now: now) == claim)
        try await reopened.close()
    }

    @Test("an answer altered on disk is replayed as the declared error, never run again or -32603")
    func alteredAnswer() async throws {
        try await withStore { store, _ in
            #expect(try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d") == .claimed)
            try await store.complete(profile: "p", key: "k", outcome: #""result":{"ok":true}"#)
            // A current-format value that does not authenticate (one changed hex digit would do).
            let altered = try SecretHasher.ephemeral().seal(#""result":{"ok":false}"#, context: "idempotency.outcome")
            try await store.pool.write { db in
                try StoreSQL.execute(db, StoreSQL.replaceOutcome, [altered, "p", "k"])
            }
            #expect(
                try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d")
                    == .replay(outcome: SQLiteStateStore.unavailableOutcome))
        }
    }
}
