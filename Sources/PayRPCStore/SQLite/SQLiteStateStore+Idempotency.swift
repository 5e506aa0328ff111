import GRDB
import PayRPCCore

/// ``IdempotencyStore``: one row per (profile, key) in `idempotency_key`, written through the
/// group committer like every other write.
extension SQLiteStateStore {
    /// Claims `key`, or reports what an earlier call with it found, in one atomic write. A key
    /// older than ``StoreConfiguration/idempotencyRetention`` counts as new.
    public func claim(profile: String, key: String, method: String, paramsDigest: String) async throws
        -> IdempotencyClaim
    {
        try StoreArguments.check(profile: profile, key: key)
        try StoreArguments.checkName(method, "method", maximum: StoreArguments.maximumKeyLength)
        let now = configuration.now
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        return try await committer.write("idempotency claim") { db in
            let time = Timestamp.milliseconds(now())
            let row = try Row.fetchOne(
                db,
                sql: "SELECT method, params_digest, outcome, created_at FROM idempotency_key WHERE profile = ? AND key = ?",
                arguments: [profile, key])
            if let row, (row["created_at"] as Int64) > time - retention {
                guard row["method"] == method, row["params_digest"] == paramsDigest else { return .conflict }
                guard let outcome: String = row["outcome"] else { return .inProgress }
                return .replay(outcome: outcome)
            }
            // New, or expired (treated as new).
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO idempotency_key (profile, key, method, params_digest, outcome, created_at, completed_at)
                    VALUES (?, ?, ?, ?, NULL, ?, NULL)
                    """,
                arguments: [profile, key, method, paramsDigest, time])
            return .claimed
        }
    }

    /// Stores the outcome of the claimed call; durable when it returns. Without a claim in
    /// progress (it expired, or was abandoned) it changes nothing.
    public func complete(profile: String, key: String, outcome: String) async throws {
        try StoreArguments.check(profile: profile, key: key)
        let now = configuration.now
        let updated = try await committer.write("idempotency complete") { db in
            try db.execute(
                sql: """
                    UPDATE idempotency_key SET outcome = ?, completed_at = max(created_at, ?)
                    WHERE profile = ? AND key = ? AND outcome IS NULL
                    """,
                arguments: [outcome, Timestamp.milliseconds(now()), profile, key])
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
            try db.execute(
                sql: "DELETE FROM idempotency_key WHERE profile = ? AND key = ? AND outcome IS NULL",
                arguments: [profile, key])
        }
    }

    /// Deletes the idempotency keys created at or before `cutoff` (ms); returns how many.
    static func purgeExpiredKeys(_ db: Database, before cutoff: Int64) throws -> Int {
        try db.execute(sql: "DELETE FROM idempotency_key WHERE created_at <= ?", arguments: [cutoff])
        return db.changesCount
    }
}
