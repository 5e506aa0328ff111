import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSync
import PayRPCStore
import PayRPCSecrets

/// A ``StateStore`` in a PostgreSQL database that several payrpc instances share
/// (`serve --store postgresql://USER@HOST:PORT/DB`), through libpq on the store's own threads.
///
/// Every transaction is `SERIALIZABLE` and is run again when the server reports a serialization
/// failure (SQLSTATE 40001, or a deadlock), up to ``maximumAttempts`` times: concurrent calls on
/// any number of instances then behave as if they had run one after another, as on one instance
/// (the body of a transaction may run more than once, which ``StateStore`` already allows).
/// Reads run in a `REPEATABLE READ READ ONLY` snapshot. A write returns once its `COMMIT` is
/// durable (`synchronous_commit` as the server has it: `on` by default).
///
/// Secrets are sealed and hashed with a key every instance is given
/// (``PostgresStoreOptions/key``), checked against the database when the store opens, so a
/// wrong key is a start-up error and never a store of unreadable values. When the server cannot
/// be reached, calls fail at once with ``StoreError/Code/unavailable`` and succeed again as soon as
/// it is back. Claims of idempotency keys belong to the instance that made them: a claim in
/// progress whose instance died (its presence lock gone, see ``PGPresence``) is claimed anew.
public final class PostgresStateStore: StateStore, StoreAdministration {
    /// How many times a transaction runs before a persistent serialization failure is given up.
    public static let maximumAttempts = 40
    /// How many times this store runs a transaction (``PostgresStoreOptions/attempts``).
    let attempts: Int

    /// Where the store lives.
    public let url: PostgresURL
    /// The keyed hasher of the store's key: the same on every instance.
    public let secrets: SecretHasher
    /// The `application_name` of the store's connections.
    public let applicationName: String
    /// This instance's identifier among those sharing the database.
    public var instanceID: Int32 { listener.instanceID }
    let pool: PGPool
    let listener: PGListener
    let configuration: StoreConfiguration
    let logger: Logger
    let events: PGEventBus
    /// Claims in progress that no call of this instance runs any more and that it could not
    /// abandon (the server was unreachable); abandoned on the next call, or taken over by the next
    /// claim of their key.
    let pendingAbandons = Lock<[(profile: String, key: String)]>([])
    /// Sealed answers of this instance's claims that could not be stored (the server was
    /// unreachable); stored on the next call.
    let pendingCompletes = Lock<[(profile: String, key: String, sealed: String)]>([])
    /// The keys this instance is claiming or running a claim of, and the stale claims it is
    /// abandoning (see ``PGClaimTraffic``).
    let claimTraffic = Lock(PGClaimTraffic())
    /// When expired keys and old events were last purged (ms).
    let lastPurge = LockedValue<Int64>(0)
    /// Idle connections of released sandbox locks (see ``sandboxLease(profile:)``).
    let sandboxLockConnections = Lock<[PGConnection]>([])
    private let closed = LockedValue(false)

    /// Opens the store: connects, applies missing migrations, checks the key, purges expired
    /// idempotency keys, and starts the listener.
    /// - Parameters:
    ///   - options: the URL, the key and the pool's size.
    ///   - configuration: retention, size limit, clock.
    /// - Throws: ``StoreError``: `unavailable` when the server cannot be reached, `cannotOpen` when
    ///   it refuses the login or the database does not exist, `secretKey` when the key is not the
    ///   one the database was set up with.
    public init(options: PostgresStoreOptions, configuration: StoreConfiguration = .init(), logger: Logger) throws {
        url = options.url
        attempts = max(1, options.attempts)
        self.configuration = configuration
        self.logger = logger
        secrets = try SecretHasher(key: options.key)
        let applicationName = options.applicationName
        self.applicationName = applicationName
        let limit = configuration.maximumBytes
        pool = PGPool(target: options.url, size: options.connections, applicationName: applicationName, logger: logger) {
            connection throws(StoreError) in
            for statement in PGStatements.all { try connection.prepare(statement) }
            _ = limit
        }
        // The schema and the key first, on a connection of their own: the pool's connections
        // prepare their statements when they connect, which needs the tables.
        let keyCheck = try secrets.keyedHash(Self.keyCheckInput, context: Self.keyCheckContext)
        let (applied, stored) = try { () throws -> ([String], String?) in
            let connection = try PGConnection(options.url, applicationName: applicationName + " setup")
            try Self.checkServerVersion(connection, options.url)
            let applied = try PGSchema.migrate(connection)
            try connection.execute(
                "INSERT INTO payrpc_meta (name, value) VALUES ('key_check', $1) ON CONFLICT (name) DO NOTHING", [keyCheck])
            let stored = try connection.execute("SELECT value FROM payrpc_meta WHERE name = 'key_check'").scalar
            if let limit {
                try connection.execute(
                    """
                    INSERT INTO payrpc_usage (id, bytes) SELECT 1, coalesce(sum(\(PGStatements.documentBytes)), 0) FROM payrpc_document
                    ON CONFLICT (id) DO UPDATE SET bytes = excluded.bytes
                    """)
                _ = limit
            }
            return (applied, stored)
        }()
        guard let stored, ConstantTime.equals(Array(stored.utf8), Array(keyCheck.utf8)) else {
            pool.close()
            throw StoreError(
                .secretKey,
                "the store key does not open \(options.url.redacted): every instance must be given the key the database was first used with (--store-key-file or PAYRPC_STORE_KEY)"
            )
        }
        listener = try PGListener(target: options.url, applicationName: applicationName + " listener", logger: logger)
        events = PGEventBus(listener: listener, logger: logger)
        listener.onConnect { [events] connection in events.catchUp(connection) }
        let time = Timestamp.milliseconds(configuration.now())
        let expired = try pool.runBlocking { session in
            try Self.purge(
                session.connection(), before: time - Timestamp.milliseconds(configuration.idempotencyRetention), now: time)
        }
        lastPurge.value = time
        logger.info(
            "store: opened",
            metadata: [
                "store.url": .string(options.url.redacted), "store.instance": .stringConvertible(listener.instanceID),
                "store.migrations": .stringConvertible(applied.count),
                "store.connections": .stringConvertible(options.connections),
                "store.maximumBytes": .string(limit.map(String.init) ?? "none"),
                "store.expiredIdempotencyKeys": .stringConvertible(expired),
            ])
    }

    /// Finishes the running jobs, stops the listener and closes every connection.
    public func close() async throws {
        guard !closed.value else { return }
        closed.value = true
        let pool = self.pool, listener = self.listener
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                pool.close()
                listener.stop()
                self.sandboxLockConnections.withLock { $0.removeAll() }
                continuation.resume()
            }
        }
        logger.info("store: closed", metadata: ["store.url": .string(url.redacted)])
    }

    /// Drops every connection at once, as a killed process would (for the contract's crash
    /// clause): nothing queued runs, the server rolls back what was not committed, and the
    /// instance's presence lock goes with its listener.
    public func abandonForCrashTest() {
        closed.value = true
        pool.abandon()
        listener.stop()
    }

    /// The identifiers of the schema's migrations applied in the database, in order
    /// (`payrpc data migrate --store …` prints them).
    /// - Throws: ``StoreError``.
    public func appliedMigrations() throws -> [String] {
        try pool.runBlocking { session in try PGSchema.applied(session.connection()) }
    }

    // MARK: - StateStore

    public func transaction<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreTransaction) throws -> R
    ) async throws -> R {
        let now = configuration.now, limit = configuration.maximumBytes, attempts = self.attempts
        let secrets = self.secrets
        let claims = ClaimWriting(owner: String(instanceID)) {
            try secrets.keyedHash($0, context: StoredRecords.paramsContext)
        }
        try await maintainIfDue()
        return try await pool.run { session in
            try Self.serializable(
                session, operation: operation, time: Timestamp.milliseconds(now()), limit: limit, attempts: attempts,
                claims: claims
            ) { documents in
                try body(StoreTransaction(documents))
            }
        }
    }

    public func read<R: Sendable>(_ operation: String, _ body: @escaping @Sendable (StoreReader) throws -> R) async throws -> R {
        try await pool.run { session in try Self.snapshot(session) { try body(StoreReader($0)) } }
    }

    // MARK: - StoreAdministration

    public func export(profile: String) async throws -> JSONValue {
        try StoreArguments.check(profile: profile)
        let rows = try await pool.run { session in
            try session.connection().execute(
                "SELECT namespace, key, value FROM payrpc_document WHERE profile = $1 ORDER BY namespace, key", [profile]
            ).rows
        }
        return try StoredRecords.exported(rows.map { ($0[0] ?? "", $0[1] ?? "", $0[2] ?? "") })
    }

    public func reset(profile: String) async throws {
        try StoreArguments.check(profile: profile)
        let limit = configuration.maximumBytes
        let (documents, keys) = try await pool.run { session in
            try Self.serializable(session, operation: "reset", time: 0, limit: nil) { documents -> (Int, Int) in
                let deleted = try documents.query(PGStatements.resetDocuments, [profile])
                let keys = try documents.query(PGStatements.resetKeys, [profile])
                if limit != nil {
                    let freed = deleted.rows.reduce(Int64(0)) { $0 + (Int64($1[0] ?? "0") ?? 0) }
                    if freed > 0 { _ = try documents.query(PGStatements.addUsage, [String(-freed)]) }
                }
                return (deleted.rows.count, keys.affected)
            }
        }
        logger.info(
            "store: profile reset",
            metadata: [
                "store.profile": "\(profile)", "store.documents": "\(documents)", "store.idempotencyKeys": "\(keys)",
            ])
    }

    public func profiles() async throws -> [String] {
        try await pool.run { session in
            try session.connection().execute(
                "SELECT profile FROM payrpc_document UNION SELECT profile FROM payrpc_idempotency_key ORDER BY profile"
            ).rows.compactMap { $0[0] }
        }
    }

    public func readAtStartUp<R>(_ body: (StoreReader) throws -> R) throws -> R {
        // On a connection of its own, on this thread: the body is not Sendable, and handing it to
        // a pool worker let the worker's queue outlive the call still holding it.
        let connection = try PGConnection(url, applicationName: applicationName + " start-up")
        // Prepared before the pipeline starts (a pipeline cannot prepare).
        for statement in PGStatements.all { try connection.prepare(statement) }
        let documents = PGDocuments(
            connection: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
            time: 0, limit: nil)
        defer { documents.rollback() }
        return try body(StoreReader(documents))
    }

    // MARK: - Events

    /// Subscribes to the events every instance's transactions publish; see ``StateStore/subscribe(_:_:)``.
    public func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        events.subscribe(channel, handler)
    }

    // MARK: - Running transactions

    /// Runs `body` in a `SERIALIZABLE` transaction on the session's connection, again after a
    /// serialization failure, and once more on a new connection when the old one turned out
    /// broken before the commit was sent (the server restarted between two calls).
    ///
    /// When the connection breaks after the `COMMIT` was sent, the server is asked on a new
    /// connection what became of the transaction (``commitFate(of:_:)``): committed, the call has
    /// succeeded and its result is returned; aborted, it runs again as if the commit had never
    /// been sent; unknown (the server is still down), the call fails `unavailable`.
    ///
    /// After a conflict, the next attempts first take the locks of the profiles the conflicting
    /// attempt touched (``PGProfileLocks``), so that transactions that keep conflicting over one
    /// profile's documents (one hot row, many connections) run one after another instead of
    /// conflicting until their attempts run out.
    static func serializable<R>(
        _ session: PGSession, operation: String, time: Int64, limit: Int64?, attempts: Int = maximumAttempts,
        claims: ClaimWriting? = nil, _ body: (PGDocuments) throws -> R
    ) throws -> R {
        var reconnected = false
        var attempt = 0
        var contended: [String] = []
        while true {
            attempt += 1
            let connection = try session.connection()
            let locked = !contended.isEmpty
            defer { if locked { PGProfileLocks.unlockAll(connection) } }
            let documents = PGDocuments(
                connection: connection, begin: "BEGIN ISOLATION LEVEL SERIALIZABLE", time: time, limit: limit,
                claims: claims)
            var outcome: R?
            do {
                if locked { try PGProfileLocks.lock(contended, on: connection) }
                let result = try body(documents)
                outcome = result
                try documents.commit()
                return result
            } catch let error as StoreError where error.code == .conflict && attempt < attempts {
                documents.rollback()
                contended = Set(contended).union(documents.profiles).sorted()
                // Spread the next attempts of conflicting transactions apart (on the store's thread).
                if attempt > 2 { usleep(UInt32.random(in: 0...UInt32(min(20_000, 500 * attempt)))) }
            } catch let error as StoreError where error.code == .unavailable {
                documents.rollback()
                session.discard()
                let lost = StoreError(.unavailable, "\(operation): \(error.message)")
                if documents.commitSent {
                    switch commitFate(of: documents.transactionID, session) {
                    case .committed:
                        guard let outcome else { throw lost }
                        return outcome
                    case .aborted: break
                    case .unknown: throw lost
                    }
                }
                guard !reconnected else { throw lost }
                reconnected = true
            } catch let error as StoreError where error.code == .conflict {
                documents.rollback()
                throw StoreError(
                    .conflict,
                    "\(operation): \(attempts) attempts conflicted with concurrent transactions (\(error.message))")
            } catch {
                documents.rollback()
                throw error
            }
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` snapshot. Its `COMMIT` is sent and left for
    /// the next job on the connection to read, so a read costs one round trip.
    static func snapshot<R>(_ session: PGSession, _ body: (PGDocuments) throws -> R) throws -> R {
        var reconnected = false
        while true {
            let connection = try session.connection()
            let documents = PGDocuments(
                connection: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                time: 0, limit: nil)
            do {
                let result = try body(documents)
                documents.finishRead()
                return result
            } catch let error as StoreError where error.code == .unavailable && !reconnected {
                session.discard()
                reconnected = true
            } catch {
                documents.rollback()
                throw error
            }
        }
    }

    // MARK: - Maintenance

    /// Purges expired idempotency keys and old events once per purge interval (autocommit, on
    /// one pooled connection; every instance may, it is idempotent).
    func maintainIfDue() async throws {
        await flushPending()
        let now = Timestamp.milliseconds(configuration.now())
        let interval = Timestamp.milliseconds(configuration.idempotencyPurgeInterval)
        guard now - lastPurge.value >= interval else { return }
        lastPurge.value = now
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        do {
            _ = try await pool.run { session in try Self.purge(session.connection(), before: now - retention, now: now) }
        } catch {
            logger.warning("store: purging expired idempotency keys failed", metadata: ["store.error": "\(error)"])
        }
    }

    /// Stores the answers and abandons the claims that could not reach the server
    /// (``pendingCompletes``, ``pendingAbandons``), on the first call after it is back: every
    /// instance then sees those keys answered or free, not "in use" for as long as this one
    /// lives. What still cannot reach it is queued again.
    private func flushPending() async {
        for claim in Self.takeAll(pendingCompletes) {
            do {
                try await complete(profile: claim.profile, key: claim.key, sealed: claim.sealed)
            } catch let error as StoreError where error.code == .unavailable {
                pendingCompletes.withLock { $0.append(claim) }
            } catch {
                logger.warning(
                    "store: an idempotency answer kept for the server's return cannot be stored; the key stays in use until it expires",
                    metadata: ["profile": .string(claim.profile), "store.error": "\(error)"])
            }
        }
        for claim in Self.takeAll(pendingAbandons) {
            let key = PGClaimTraffic.Key(profile: claim.profile, key: claim.key)
            // A claim of the key being made or run here now is left alone: abandoned later.
            guard claimTraffic.withLock({ $0.startAbandoning(key) }) else {
                pendingAbandons.withLock { $0.append(claim) }
                continue
            }
            defer { claimTraffic.withLock { $0.abandoned(key) } }
            do {
                try await deleteClaim(profile: claim.profile, key: claim.key)
            } catch let error as StoreError where error.code == .unavailable {
                pendingAbandons.withLock { $0.append(claim) }
            } catch {
                logger.warning(
                    "store: a claim left in progress cannot be abandoned; the key stays in use until it expires",
                    metadata: ["profile": .string(claim.profile), "store.error": "\(error)"])
            }
        }
    }

    /// Empties `list` and returns what it held.
    private static func takeAll<Element: Sendable>(_ list: borrowing Lock<[Element]>) -> [Element] {
        list.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Deletes idempotency keys created at or before `cutoff` and events older than the event
    /// retention; returns how many keys.
    static func purge(_ connection: PGConnection, before cutoff: Int64, now: Int64) throws(StoreError) -> Int {
        let keys = try connection.execute("DELETE FROM payrpc_idempotency_key WHERE created_at <= $1", [String(cutoff)]).affected
        try connection.execute("DELETE FROM payrpc_event WHERE created_at <= $1", [String(now - PGEventBus.retention)])
        return keys
    }

    /// What the key check is a keyed hash of.
    static let keyCheckInput = "payrpc store key check"
    static let keyCheckContext = "store.keyCheck"
}
