import Foundation
import GRDB
import PayRPCCore
import Logging
import PayRPCJSON
import PayRPCStore
import PayRPCSecrets

/// ``IdempotencyStore``: one row per (profile, key) in `idempotency_key`, written through the
/// group committer like every other write.
extension SQLiteStateStore {
    /// Claims `key`, or reports what an earlier call with it found, in one atomic write. A key
    /// older than ``StoreConfiguration/idempotencyRetention`` at `now` (the profile's sandbox
    /// time) counts as new.
    public func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim
    {
        try StoreArguments.check(profile: profile, key: key)
        try StoreArguments.checkName(method, "method", maximum: StoreArguments.maximumKeyLength)
        // Params may hold secrets (a PIN): only their keyed hash is kept.
        let paramsDigest = try secrets.keyedHash(paramsDigest, context: Self.paramsContext)
        let secrets = self.secrets, logger = self.logger
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        let time = Timestamp.milliseconds(now)
        return try await committer.write("idempotency claim") { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: StoreSQL.selectClaim), arguments: [profile, key])
            if let row, (row["created_at"] as Int64) > time - retention {
                guard row["method"] == method, row["params_digest"] == paramsDigest else { return .conflict }
                guard let sealed: String = row["outcome"] else { return .inProgress }
                guard let outcome = secrets.unseal(sealed, context: Self.outcomeContext) else {
                    // Altered on disk (an earlier format was resealed when the store opened): the
                    // call ran once, so it must not run again, and its answer is gone.
                    logger.warning(
                        "store: an idempotency answer cannot be opened with this data directory's key",
                        metadata: ["profile": .string(profile)])
                    return .replay(outcome: Self.unavailableOutcome)
                }
                return .replay(outcome: outcome)
            }
            // New, or expired (treated as new).
            try StoreSQL.execute(db, StoreSQL.insertClaim, [profile, key, method, paramsDigest, time])
            return .claimed
        }
    }

    /// Stores the outcome of the claimed call; durable when it returns. Without a claim in
    /// progress (it expired, or was abandoned) it changes nothing.
    public func complete(profile: String, key: String, outcome: String) async throws {
        try StoreArguments.check(profile: profile, key: key)
        // The first answer may hold a secret (a secureToken): it is kept sealed under the server key.
        let outcome = try secrets.seal(outcome, context: Self.outcomeContext)
        let now = configuration.now
        let updated = try await committer.write("idempotency complete") { db in
            try StoreSQL.execute(db, StoreSQL.completeClaim, [outcome, Timestamp.milliseconds(now()), profile, key])
            return db.changesCount
        }
        if updated == 0 {
            // Expired and purged, abandoned, or completed twice: the answer stands; nothing to keep.
            logger.debug("store: idempotency key completed without a claim in progress")
        }
    }

    /// Deletes a claim still in progress (never a completed key).
    public func abandon(profile: String, key: String) async throws {
        try StoreArguments.check(profile: profile, key: key)
        try await committer.write("idempotency abandon") { db in
            try StoreSQL.execute(db, StoreSQL.abandonClaim, [profile, key])
        }
    }

    /// How a transaction writes a claim as ``claim(profile:key:method:paramsDigest:now:)`` does.
    var claimWriting: ClaimWriting {
        let secrets = self.secrets
        return ClaimWriting(owner: nil) { try secrets.keyedHash($0, context: Self.paramsContext) }
    }

    /// The associated data of sealed outcomes (``StoredRecords/outcomeContext``).
    static let outcomeContext = StoredRecords.outcomeContext
    /// The context of the params' keyed hash (``StoredRecords/paramsContext``).
    static let paramsContext = StoredRecords.paramsContext
    /// ``StoredRecords/unavailableOutcome``.
    static var unavailableOutcome: String { StoredRecords.unavailableOutcome }

    /// Reseals the answers of keys created after `cutoff` (ms; older ones are purged) that an
    /// earlier version sealed in a format this one cannot open (see ``SecretHasher/sealPrefix``)
    /// as ``unavailableOutcome``; returns how many. A repeat of such a call then gets a declared
    /// error instead of running again or failing.
    static func resealEarlierOutcomes(_ db: Database, secrets: SecretHasher, after cutoff: Int64) throws -> Int {
        let keys = try Row.fetchAll(db, sql: StoreSQL.selectEarlierOutcomes, arguments: [SecretHasher.sealPrefix, cutoff])
        guard !keys.isEmpty else { return 0 }
        let outcome = try secrets.seal(unavailableOutcome, context: outcomeContext)
        for row in keys {
            try StoreSQL.execute(db, StoreSQL.replaceOutcome, [outcome, row["profile"] as String, row["key"] as String])
        }
        return keys.count
    }

    /// Deletes the idempotency keys created at or before `cutoff` (ms); returns how many.
    static func purgeExpiredKeys(_ db: Database, before cutoff: Int64) throws -> Int {
        try StoreSQL.execute(db, StoreSQL.purgeExpired, [cutoff])
        return db.changesCount
    }
}
