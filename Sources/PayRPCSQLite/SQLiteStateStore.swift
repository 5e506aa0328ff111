import Foundation
import GRDB
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCStore
import PayRPCSecrets

/// The default ``StateStore``: one SQLite database (`payrpc.sqlite`) in the data directory,
/// through a GRDB `DatabasePool` in WAL mode.
///
/// Reads run on GRDB's reader connections and see every write that has returned. Writes go
/// through a ``GroupCommitter``: concurrent writes share one transaction and one fsync, and
/// each returns only after its transaction is on disk (`synchronous=FULL` unless configured
/// otherwise). Documents are stored as JSON text; values never appear in logs.
public final class SQLiteStateStore: StateStore, StoreAdministration {
    /// The name of the database file in the data directory.
    public static let fileName = "payrpc.sqlite"

    /// The database file.
    public let path: String
    /// The keyed hasher of this data directory (its server key): what services hash card
    /// numbers, tokens and PINs with, and what idempotency records keep of their params.
    public let secrets: SecretHasher
    let pool: DatabasePool
    let committer: GroupCommitter
    let configuration: StoreConfiguration
    let logger: Logger
    /// A directory made by ``temporary(configuration:logger:)``, removed on close.
    let temporaryDirectory: LockedValue<URL?> = LockedValue(nil)
    /// When expired idempotency keys were last purged (ms); read and written on the writer queue.
    let lastPurge: LockedValue<Int64>
    /// The size limit in force (``setMaximumBytes(_:)``); nil: none.
    let maximumBytes: LockedValue<Int64?>
    /// The subscribers of published events.
    let hub = StoreEventHub()

    /// Opens (creating if needed) the store in `directory`, creating the directory too.
    ///
    /// Applies pending migrations, sets `synchronous` on the writer, purges expired
    /// idempotency keys, drops claims left in progress by a process that died, and replaces
    /// answers sealed in an earlier format (which this version cannot open) with a declared
    /// error, logging how many in one line.
    /// - Throws: ``StoreError``: `notADatabase` when `payrpc.sqlite` is some other file,
    ///   `cannotOpen` when the directory or file cannot be created, `busy` when another process
    ///   holds it locked, `corrupt`, `io`.
    public convenience init(directory: URL, configuration: StoreConfiguration = .init(), logger: Logger) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.cannotOpen, "cannot create the data directory \(directory.path): \(error.localizedDescription)")
        }
        try self.init(path: directory.appendingPathComponent(Self.fileName).path, configuration: configuration, logger: logger)
    }

    /// Opens (creating if needed) the store in the database file at `path`.
    /// - Throws: ``StoreError``, as ``init(directory:configuration:logger:)``.
    public init(path: String, configuration: StoreConfiguration = .init(), logger: Logger) throws {
        self.path = path
        self.configuration = configuration
        self.logger = logger
        self.secrets = try SecretHasher.loadOrCreate(in: URL(fileURLWithPath: path).deletingLastPathComponent())
        var grdb = Configuration()
        grdb.label = "payrpc.store"
        grdb.busyMode = .timeout(Double(Timestamp.milliseconds(configuration.busyTimeout)) / 1000)
        grdb.maximumReaderCount = max(1, configuration.maximumReaderCount)
        grdb.publicStatementArguments = false
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: grdb)
        } catch {
            throw Self.openError(error, path: path)
        }
        self.pool = pool
        self.maximumBytes = LockedValue(configuration.maximumBytes)
        let lastPurge = LockedValue<Int64>(0)
        self.lastPurge = lastPurge
        let retention = Timestamp.milliseconds(configuration.idempotencyRetention)
        let interval = Timestamp.milliseconds(configuration.idempotencyPurgeInterval)
        let now = configuration.now
        let committer = GroupCommitter(
            pool: pool, logger: logger, maximumBatchSize: configuration.maximumBatchSize,
            maintenance: { db in
                let time = Timestamp.milliseconds(now())
                guard time - lastPurge.value >= interval else { return 0 }
                let purged = try Self.purgeExpiredKeys(db, before: time - retention)
                lastPurge.value = time
                return purged
            })
        self.committer = committer
        do {
            let level = configuration.synchronousFull ? "FULL" : "NORMAL"
            // DatabasePool sets NORMAL when it enables WAL, after `prepareDatabase` has run:
            // set the level here, once the pool is open, on the writer connection.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(level)")
                try db.execute(sql: "PRAGMA cache_size = -\(configuration.writerCacheKibibytes)")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(configuration.checkpointPages)")
            }
            try StoreSchema.migrator.migrate(pool)
            // Like a migration, before the size limit applies: a resealed answer may be longer.
            let secrets = self.secrets
            let resealed = try pool.write { db in
                try Self.resealEarlierOutcomes(db, secrets: secrets, after: Timestamp.milliseconds(now()) - retention)
            }
            if resealed > 0 {
                logger.warning(
                    "store: idempotency answers sealed by an earlier version cannot be read by this one; a repeat of those calls answers -32005 'Idempotency answer unavailable'",
                    metadata: ["store.unreadableIdempotencyAnswers": "\(resealed)"])
            }
            // After the migrations, so a store at its limit still opens and serves reads.
            let usage = try pool.writeWithoutTransaction { db in
                try Self.applyMaximumBytes(configuration.maximumBytes, db)
            }
            if let maximum = usage.maximumBytes, let configured = configuration.maximumBytes, maximum > configured {
                logger.warning(
                    "store: the database is already larger than its size limit; only updates in place and deletes will fit",
                    metadata: [
                        "store.bytes": "\(usage.fileBytes)", "store.maximumBytes": "\(configured)",
                    ])
            }
            let time = Timestamp.milliseconds(now())
            let (expired, abandoned) = try pool.write { db in
                let expired = try Self.purgeExpiredKeys(db, before: time - retention)
                try db.execute(sql: "DELETE FROM idempotency_key WHERE outcome IS NULL")
                return (expired, db.changesCount)
            }
            lastPurge.value = time
            committer.countExpiredKeys(expired)
            logger.info(
                "store: opened",
                metadata: [
                    "store.path": "\(path)", "store.synchronous": "\(level)",
                    "store.maximumBytes": "\(configuration.maximumBytes.map(String.init) ?? "none")",
                    "store.expiredIdempotencyKeys": "\(expired)", "store.abandonedClaims": "\(abandoned)",
                ])
        } catch {
            try? pool.close()
            throw Self.openError(error, path: path)
        }
    }

    /// A store in a new directory under the system's temporary directory, removed again by
    /// ``close()``: for the tests of services, which should run against the real store.
    /// - Throws: ``StoreError``.
    public static func temporary(
        configuration: StoreConfiguration = .init(), logger: Logger = Logger(label: "payrpc.store")
    ) throws -> SQLiteStateStore {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("payrpc-store-\(UUID().uuidString)", isDirectory: true)
        do {
            let store = try SQLiteStateStore(directory: directory, configuration: configuration, logger: logger)
            store.temporaryDirectory.value = directory
            return store
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Counters of the writer: `writes` and `commits` (one fsync each) so far.
    public var statistics: StoreStatistics { committer.statistics }

    /// Finishes the queued writes, then closes every connection. Later calls fail with
    /// ``StoreError/Code/closed``; closing again does nothing.
    /// - Throws: ``StoreError`` when SQLite cannot close (a statement still running).
    public func close() async throws {
        guard committer.close() else { return }
        do {
            // Queued behind every drain already scheduled on the writer queue.
            try await pool.writeWithoutTransaction { _ in }
            try pool.close()
        } catch {
            throw StoreError.from(error, operation: "closing \(path)")
        }
        if let directory = temporaryDirectory.value { try? FileManager.default.removeItem(at: directory) }
        logger.info("store: closed", metadata: ["store.path": "\(path)"])
    }

    // MARK: - Documents

    /// One atomic write in the next group commit, on the writer's connection; see
    /// ``StateStore/transaction(_:_:)``.
    public func transaction<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreTransaction) throws -> R
    ) async throws -> R {
        let now = configuration.now, claims = claimWriting
        let events = PublishedEvents()
        let result = try await committer.write(operation) { db in
            events.reset()
            let documents = SQLiteDocuments(db: db, time: Timestamp.milliseconds(now()), events: events, claims: claims)
            return try body(StoreTransaction(documents))
        }
        hub.deliver(events.all)
        return result
    }

    /// Subscribes to the events this process's transactions publish (an embedded store has no
    /// other instance); see ``StateStore/subscribe(_:_:)``.
    public func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        hub.subscribe(channel, handler)
    }

    /// A consistent read on a reader connection, on the caller's thread; see ``StateStore/read(_:_:)``.
    public func read<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreReader) throws -> R
    ) async throws -> R {
        try await readDatabase(operation) { db in try body(StoreReader(SQLiteDocuments(db: db, time: 0))) }
    }

    /// Every document of the profile, read in one snapshot: `{namespace: {key: value}}`.
    public func export(profile: String) async throws -> JSONValue {
        try StoreArguments.check(profile: profile)
        let rows = try await readDatabase("export") { db in
            try Row.fetchAll(
                db, sql: "SELECT namespace, key, value FROM document WHERE profile = ? ORDER BY namespace, key",
                arguments: [profile]
            ).map { row -> (String, String, String) in (row["namespace"], row["key"], row["value"]) }
        }
        return try Self.exported(rows)
    }

    /// ``StoredRecords/exported(_:)``.
    static func exported(_ rows: [(String, String, String)]) throws -> JSONValue { try StoredRecords.exported(rows) }

    /// Deletes the profile's documents and idempotency keys in one write; durable when it returns.
    public func reset(profile: String) async throws {
        try StoreArguments.check(profile: profile)
        let (documents, keys) = try await committer.write("reset") { db in
            try db.execute(sql: "DELETE FROM document WHERE profile = ?", arguments: [profile])
            let documents = db.changesCount
            try db.execute(sql: "DELETE FROM idempotency_key WHERE profile = ?", arguments: [profile])
            return (documents, db.changesCount)
        }
        logger.info(
            "store: profile reset",
            metadata: [
                "store.profile": "\(profile)", "store.documents": "\(documents)", "store.idempotencyKeys": "\(keys)",
            ])
    }

    /// The profiles that have documents or idempotency keys, in order.
    public func profiles() async throws -> [String] {
        try await readDatabase("profiles") { db in
            try String.fetchAll(
                db, sql: "SELECT profile FROM document UNION SELECT profile FROM idempotency_key ORDER BY profile")
        }
    }

    // MARK: - Helpers

    /// Runs a read on a reader connection, mapping failures to ``StoreError``.
    ///
    /// On the caller's thread (GRDB's synchronous read): a short SQLite read costs less than the
    /// two thread hops of its asynchronous read, and calls run on their connection's loop (issue 19).
    func readDatabase<Value: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        do {
            return try readNow(body)
        } catch {
            throw StoreError.from(error, operation: operation)
        }
    }

    /// GRDB's synchronous read (an async caller would otherwise get its asynchronous overload).
    private func readNow<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) throws -> Value {
        try pool.read(body)
    }

    /// ``StoredRecords/parse(_:namespace:key:)``.
    static func parse(_ text: String, namespace: String, key: String) throws(StoreError) -> JSONValue {
        try StoredRecords.parse(text, namespace: namespace, key: key)
    }

    /// The error for a failure to open the file at `path`, with what to do about it.
    static func openError(_ error: any Error, path: String) -> StoreError {
        var mapped = StoreError.from(error, operation: "opening \(path)")
        switch mapped.code {
        case .notADatabase:
            mapped.message =
                "\(path) is not a SQLite database (\(mapped.message)); move it away or choose another --data directory"
        case .busy:
            mapped.message += "; is another payrpc process using this data directory?"
        default:
            break
        }
        return mapped
    }
}
