import Foundation
import PayRPCStore

/// The documents of a ``PostgresStateStore`` as one transaction sees them, on one connection.
///
/// Pipelined: `BEGIN` goes out with the first statement, writes (put, delete) are sent without
/// waiting for their results, and a read sends its query behind them and reads everything owed
/// up to its own rows. So a body that reads one document and writes two, then commits, costs
/// two round trips: [BEGIN, SELECT] and [UPSERT, UPSERT, COMMIT]. A write that the server refuses
/// fails the transaction at the next read or at the commit. With a size limit, writes read back
/// the size they replaced (one round trip each) and the commit adds their total to the bytes in
/// use, refusing it when the total passes the limit.
final class PGDocuments: DocumentWriting {
    let connection: PGConnection
    /// `BEGIN …`, sent before the first statement.
    private let begin: String
    /// `updated_at` of every write, in milliseconds since 1970.
    private let time: Int64
    /// The size limit in bytes; nil: none, and nothing counted.
    private let limit: Int64?
    private var begun = false
    /// Whether `COMMIT` was sent: from then on a broken connection leaves the outcome unknown
    /// until the server is asked (``transactionID``), and the transaction must not be run again
    /// unless it says the transaction was aborted.
    private(set) var commitSent = false
    /// Whether the transaction wrote something (only then is a lost commit worth asking about).
    private var wrote = false
    /// The transaction's identifier (`pg_current_xact_id()`), read in the commit's round trip
    /// ahead of the commit itself, so that a connection that breaks during the `COMMIT` leaves
    /// the store a way to learn the transaction's fate (``PGStatements/transactionStatus``).
    private(set) var transactionID: String?
    /// Bytes this transaction adds (negative: frees), under a size limit.
    private var delta: Int64 = 0
    /// The profiles whose documents the transaction read or wrote (the locks a retry takes after
    /// a conflict, ``PGProfileLocks``).
    private(set) var profiles: Set<String> = []
    /// Notifications to send at commit (`pg_notify`, delivered only if the commit succeeds).
    private var notifications: [(channel: String, payload: String)] = []
    /// How the transaction writes a claim (nil: a read, or the store's own claim transaction).
    private let claims: ClaimWriting?

    init(connection: PGConnection, begin: String, time: Int64, limit: Int64?, claims: ClaimWriting? = nil) {
        self.connection = connection
        self.begin = begin
        self.time = time
        self.limit = limit
        self.claims = claims
    }

    // MARK: DocumentReading

    func text(profile: String, namespace: String, key: String) throws -> String? {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        profiles.insert(profile)
        return try query(PGStatements.selectValue, [profile, namespace, key]).scalar
    }

    func texts(profile: String, namespace: String, keyPrefix: String?) throws -> [(key: String, text: String)] {
        try StoreArguments.check(profile: profile, namespace: namespace)
        profiles.insert(profile)
        return try query(PGStatements.selectPrefixed, [profile, namespace, keyPrefix ?? ""]).rows.map {
            ($0[0] ?? "", $0[1] ?? "")
        }
    }

    func profiles(namespace: String) throws -> [String] {
        try StoreArguments.checkName(namespace, "namespace", maximum: StoreArguments.maximumNameLength)
        return try query(PGStatements.selectProfiles, [namespace]).rows.compactMap { $0[0] }
    }

    // MARK: DocumentWriting

    func putText(profile: String, namespace: String, key: String, text: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        profiles.insert(profile)
        let parameters: [String?] = [profile, namespace, key, text, String(time)]
        guard limit != nil else { return try write(PGStatements.upsert, parameters) }
        wrote = true
        let replaced = Int64(try query(PGStatements.upsertCounting, parameters).scalar ?? "0") ?? 0
        delta += Self.bytes(profile, namespace, key, text) - replaced
    }

    func delete(profile: String, namespace: String, key: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        profiles.insert(profile)
        guard limit != nil else { return try write(PGStatements.deleteDocument, [profile, namespace, key]) }
        wrote = true
        delta -= Int64(try query(PGStatements.deleteCounting, [profile, namespace, key]).scalar ?? "0") ?? 0
    }

    func publish(_ payload: String, on channel: String) throws {
        guard begin.contains("SERIALIZABLE") else {
            throw StoreError(.invalidArgument, "events are published in a transaction, not a read")
        }
        try write(PGStatements.publishEvent, [channel, payload, String(time)])
    }

    func claim(profile: String, key: String, method: String, paramsDigest: String) throws {
        guard let claims, let owner = claims.owner else {
            throw StoreError(.invalidArgument, "claims are made in a transaction, not a read")
        }
        profiles.insert(profile)
        try write(PGStatements.insertClaim, [profile, key, method, claims.digest(paramsDigest), String(time), owner])
    }

    /// Sends `NOTIFY channel, payload` with the commit (nothing when the transaction rolls back).
    func notify(channel: String, payload: String) {
        notifications.append((channel, payload))
    }

    /// Ends a read: its `COMMIT` is sent and left owed, for the connection's next job to read
    /// (a read-only snapshot's commit cannot fail), so the read costs one round trip.
    func finishRead() {
        guard begun else { return }
        begun = false
        do {
            try connection.send("COMMIT")
            try connection.sync()
        } catch {
            // Broken: the pool replaces the connection.
        }
    }

    // MARK: The transaction

    /// Runs a query behind whatever was sent before it and returns its rows.
    /// - Throws: the first error of the statements read on the way (the transaction is lost then).
    func query(_ statement: PGStatement, _ parameters: [String?]) throws(StoreError) -> PGRows {
        try startIfNeeded()
        try connection.send(statement, parameters)
        try connection.flush()
        var failure: StoreError?
        while connection.owed > 1 {
            if case .failed(let error) = try connection.nextResult(), failure == nil { failure = error }
        }
        switch try connection.nextResult() {
        case .rows(let rows) where failure == nil: return rows
        case .failed(let error): throw failure ?? error
        default: throw failure ?? StoreError(.database, "\(statement.name) was skipped")
        }
    }

    /// Sends a statement whose result is read later (at the next query or the commit).
    func write(_ statement: PGStatement, _ parameters: [String?]) throws(StoreError) {
        try startIfNeeded()
        wrote = true
        try connection.send(statement, parameters)
    }

    /// Commits: the size check under a limit, the notifications, `COMMIT`, and every owed result.
    ///
    /// A transaction that wrote asks for its identifier in the same round trip, followed by a
    /// flush request, so the server sends the identifier before it runs the `COMMIT`: when the
    /// connection then breaks with the commit's answer unread, ``transactionID`` is (nearly
    /// always) known and the server can be asked whether the commit went through.
    /// - Throws: the first error among the writes or the commit; the transaction is rolled back then.
    func commit() throws(StoreError) {
        guard begun else { return }
        do throws(StoreError) {
            if let limit, delta != 0 {
                let total = Int64(try query(PGStatements.addUsage, [String(delta)]).scalar ?? "0") ?? 0
                if delta > 0 && total > limit {
                    throw StoreError(
                        .full,
                        "the write does not fit: the store would hold \(total) bytes of documents, over its limit of \(limit)")
                }
            }
            for notification in notifications {
                try connection.send(PGStatements.notify, [notification.channel, notification.payload])
            }
            let owedBeforeIdentifier = connection.owed
            if wrote {
                try connection.send(PGStatements.currentTransaction, [])
                try connection.flush()
            }
            commitSent = true
            try connection.send("COMMIT")
            try connection.sync()
            var failure: StoreError?
            if wrote {
                for _ in 0..<owedBeforeIdentifier {
                    if case .failed(let error) = try connection.nextResult(), failure == nil { failure = error }
                }
                if case .rows(let rows) = try connection.nextResult() { transactionID = rows.scalar }
            }
            let drained = try connection.drain()
            if let error = failure ?? drained { throw error }
            begun = false
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back whatever was begun and reads every owed result; leaves the connection ready
    /// for the next transaction (or broken, for the pool to replace).
    func rollback() {
        guard begun else { return }
        begun = false
        do {
            try connection.sync()
            _ = try connection.drain()
            try connection.send("ROLLBACK")
            try connection.sync()
            _ = try connection.drain()
        } catch {
            // Broken: the pool replaces the connection; the server rolls back on its side.
        }
    }

    private func startIfNeeded() throws(StoreError) {
        guard !begun else { return }
        try connection.send(begin)
        begun = true
    }

    /// The size a document counts for under a size limit (``PGStatements/documentBytes``).
    static func bytes(_ profile: String, _ namespace: String, _ key: String, _ value: String) -> Int64 {
        Int64(profile.utf8.count + namespace.utf8.count + key.utf8.count + value.utf8.count + 32)
    }
}
