import Foundation
import Logging
import PayRPCCore
import PayRPCSync

/// ``IdempotencyStore`` on PostgreSQL: one row per (profile, key) in `payrpc_idempotency_key`,
/// claimed in a serializable transaction, so of two instances claiming one key at once exactly
/// one gets it and the other sees it in progress (or its answer), as on one instance.
///
/// A claim belongs to the instance that made it (`owner`): only that instance completes or
/// abandons it, and a claim in progress whose instance died (its presence lock gone) counts as
/// abandoned, so the call can be made again: what one instance's restart does for its own claims.
extension PostgresStateStore {
    public func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim
    {
        try StoreArguments.check(profile: profile, key: key)
        try StoreArguments.checkName(method, "method", maximum: StoreArguments.maximumKeyLength)
        try await maintainIfDue()
        let paramsDigest = try secrets.keyedHash(paramsDigest, context: SQLiteStateStore.paramsContext)
        let secrets = self.secrets, logger = self.logger, owner = String(instanceID)
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        let time = Timestamp.milliseconds(now)
        return try await pool.run { session in
            try Self.serializable(session, operation: "idempotency claim", time: time, limit: nil) {
                documents -> IdempotencyClaim in
                if let row = try documents.query(PGStatements.selectClaim, [profile, key]).rows.first,
                    let created = row[3].flatMap({ Int64($0) }), created > time - retention
                {
                    let abandoned: Bool
                    if row[2] == nil, let holder = row[4], holder != owner {
                        abandoned = try documents.query(PGStatements.ownerAlive, [holder]).scalar != "t"
                    } else {
                        abandoned = false
                    }
                    if !abandoned {
                        guard row[0] == method, row[1] == paramsDigest else { return .conflict }
                        guard let sealed = row[2] else { return .inProgress }
                        guard let outcome = secrets.unseal(sealed, context: SQLiteStateStore.outcomeContext) else {
                            logger.warning(
                                "store: an idempotency answer cannot be opened with the store key",
                                metadata: ["profile": .string(profile)])
                            return .replay(outcome: SQLiteStateStore.unavailableOutcome)
                        }
                        return .replay(outcome: outcome)
                    }
                }
                try documents.write(PGStatements.insertClaim, [profile, key, method, paramsDigest, String(time), owner])
                return .claimed
            }
        }
    }

    public func complete(profile: String, key: String, outcome: String) async throws {
        try StoreArguments.check(profile: profile, key: key)
        let outcome = try secrets.seal(outcome, context: SQLiteStateStore.outcomeContext)
        let now = configuration.now, owner = String(instanceID)
        let updated = try await pool.run { session in
            try session.connection().execute(
                PGStatements.completeClaim.sql, [outcome, String(Timestamp.milliseconds(now())), profile, key, owner]
            ).affected
        }
        if updated == 0 { logger.debug("store: idempotency key completed without a claim in progress") }
    }

    public func abandon(profile: String, key: String) async throws {
        try StoreArguments.check(profile: profile, key: key)
        let owner = String(instanceID)
        do {
            try await pool.run { session in
                try session.connection().execute(PGStatements.abandonClaim.sql, [profile, key, owner])
            }
        } catch let error as StoreError where error.code == .unavailable {
            // Kept to abandon once the server is back: a claim left in progress would answer
            // "in use" to every retry for as long as this instance lives.
            pendingAbandons.withLock { $0.append((profile, key)) }
            throw error
        }
    }
}
