import Foundation
import Logging
import PayRPCCore
import PayRPCSync
import PayRPCStore
import PayRPCSecrets

/// ``IdempotencyStore`` on PostgreSQL: one row per (profile, key) in `payrpc_idempotency_key`,
/// claimed in a serializable transaction, so of two instances claiming one key at once exactly
/// one gets it and the other sees it in progress (or its answer), as on one instance.
///
/// A claim belongs to the instance that made it (`owner`): only that instance completes or
/// abandons it, and a claim in progress whose instance died (its presence lock gone) counts as
/// abandoned, so the call can be made again: what one instance's restart does for its own claims.
/// An answer this instance could not store because the server went away waits in
/// ``pendingCompletes`` and is stored by the first call after it is back; a claim it could not
/// abandon (or whose own commit's outcome it never learnt) waits in ``pendingAbandons``: the next
/// claim of the key here takes it over, and the first call after the server is back abandons the
/// others.
extension PostgresStateStore {
    public func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim
    {
        try StoreArguments.check(profile: profile, key: key)
        try StoreArguments.checkName(method, "method", maximum: StoreArguments.maximumKeyLength)
        try await maintainIfDue()
        let paramsDigest = try secrets.keyedHash(paramsDigest, context: StoredRecords.paramsContext)
        let secrets = self.secrets, logger = self.logger, owner = String(instanceID), attempts = self.attempts
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        let time = Timestamp.milliseconds(now)
        let traffic = PGClaimTraffic.Key(profile: profile, key: key)
        guard claimTraffic.withLock({ $0.enter(traffic) }) else { return .inProgress }
        // A claim of this key left in progress by a call of ours whose store failed is ours to
        // take over; taken out of the pending abandons here, so only this claim does.
        let stale = takePendingAbandon(profile: profile, key: key)
        do {
            let claim = try await pool.run { session in
                try Self.serializable(session, operation: "idempotency claim", time: time, limit: nil, attempts: attempts) {
                    documents -> IdempotencyClaim in
                    if let row = try documents.query(PGStatements.selectClaim, [profile, key]).rows.first,
                        let created = row[3].flatMap({ Int64($0) }), created > time - retention
                    {
                        let abandoned: Bool
                        if row[2] == nil, let holder = row[4] {
                            abandoned =
                                holder == owner
                                ? stale : try documents.query(PGStatements.ownerAlive, [holder]).scalar != "t"
                        } else {
                            abandoned = false
                        }
                        if !abandoned {
                            guard row[0] == method, row[1] == paramsDigest else { return .conflict }
                            guard let sealed = row[2] else { return .inProgress }
                            guard let outcome = secrets.unseal(sealed, context: StoredRecords.outcomeContext) else {
                                logger.warning(
                                    "store: an idempotency answer cannot be opened with the store key",
                                    metadata: ["profile": .string(profile)])
                                return .replay(outcome: StoredRecords.unavailableOutcome)
                            }
                            return .replay(outcome: outcome)
                        }
                    }
                    try documents.write(
                        PGStatements.insertClaim, [profile, key, method, paramsDigest, String(time), owner])
                    return .claimed
                }
            }
            // A granted claim is run until its call completes or abandons it.
            if case .claimed = claim {} else { claimTraffic.withLock { $0.leave(traffic) } }
            return claim
        } catch let error as StoreError where error.code == .unavailable {
            claimTraffic.withLock { $0.leave(traffic) }
            // The claim may have committed before the connection broke: if it did, it is ours,
            // in progress, and no call runs it. Abandoned when the server is back, or taken over
            // by the next claim of the key here.
            pendingAbandons.withLock { $0.append((profile, key)) }
            throw error
        } catch {
            claimTraffic.withLock { $0.leave(traffic) }
            if stale { pendingAbandons.withLock { $0.append((profile, key)) } }
            throw error
        }
    }

    public func complete(profile: String, key: String, outcome: String) async throws {
        defer { claimTraffic.withLock { $0.leave(PGClaimTraffic.Key(profile: profile, key: key)) } }
        try StoreArguments.check(profile: profile, key: key)
        let sealed = try secrets.seal(outcome, context: StoredRecords.outcomeContext)
        do {
            try await complete(profile: profile, key: key, sealed: sealed)
        } catch let error as StoreError where error.code == .unavailable {
            // Kept to store once the server is back: until then the claim stays in progress, so
            // a repeat is answered "in use", never run a second time.
            pendingCompletes.withLock { $0.append((profile, key, sealed)) }
            throw error
        }
    }

    /// Stores `sealed` as the answer of this instance's claim in progress of the key.
    /// - Throws: ``StoreError``.
    func complete(profile: String, key: String, sealed: String) async throws {
        let now = configuration.now, owner = String(instanceID)
        let updated = try await pool.run { session in
            try session.connection().execute(
                PGStatements.completeClaim.sql, [sealed, String(Timestamp.milliseconds(now())), profile, key, owner]
            ).affected
        }
        if updated == 0 { logger.debug("store: idempotency key completed without a claim in progress") }
    }

    public func abandon(profile: String, key: String) async throws {
        defer { claimTraffic.withLock { $0.leave(PGClaimTraffic.Key(profile: profile, key: key)) } }
        try StoreArguments.check(profile: profile, key: key)
        do {
            try await deleteClaim(profile: profile, key: key)
        } catch let error as StoreError where error.code == .unavailable {
            // Kept to abandon once the server is back: a claim left in progress would answer
            // "in use" to every retry for as long as this instance lives.
            pendingAbandons.withLock { $0.append((profile, key)) }
            throw error
        }
    }

    /// Deletes this instance's claim in progress of the key.
    /// - Throws: ``StoreError``.
    func deleteClaim(profile: String, key: String) async throws {
        let owner = String(instanceID)
        try await pool.run { session in
            _ = try session.connection().execute(PGStatements.abandonClaim.sql, [profile, key, owner])
        }
    }

    /// Removes (profile, key) from the pending abandons; whether it was there.
    private func takePendingAbandon(profile: String, key: String) -> Bool {
        pendingAbandons.withLock { pending in
            guard let index = pending.firstIndex(where: { $0.profile == profile && $0.key == key }) else { return false }
            pending.remove(at: index)
            return true
        }
    }
}
