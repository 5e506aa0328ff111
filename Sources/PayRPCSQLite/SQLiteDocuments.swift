import GRDB
import PayRPCStore

/// The documents of a ``SQLiteStateStore`` as one connection sees them: the writer's, inside the
/// savepoint the ``GroupCommitter`` opened for a transaction (reads go through the writer's own
/// page cache, no second thread), or a reader's, inside one read.
struct SQLiteDocuments: DocumentWriting {
    let db: Database
    /// `updated_at` of every write, in milliseconds since 1970 (when the transaction began).
    let time: Int64
    /// Where the events the transaction publishes wait for its commit (nil in a read).
    var events: PublishedEvents? = nil
    /// How the transaction writes a claim (nil in a read).
    var claims: ClaimWriting? = nil

    func text(profile: String, namespace: String, key: String) throws -> String? {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        return try String.fetchOne(db.cachedStatement(sql: StoreSQL.selectValue), arguments: [profile, namespace, key])
    }

    func texts(profile: String, namespace: String, keyPrefix: String?) throws -> [(key: String, text: String)] {
        try StoreArguments.check(profile: profile, namespace: namespace)
        let prefix = keyPrefix ?? ""
        return try Row.fetchAll(
            db.cachedStatement(sql: StoreSQL.selectPrefixed),
            arguments: [profile, namespace, prefix, prefix, prefix]
        )
        .map { row in (row["key"], row["value"]) }
    }

    func profiles(namespace: String) throws -> [String] {
        try StoreArguments.checkName(namespace, "namespace", maximum: StoreArguments.maximumNameLength)
        return try String.fetchAll(db.cachedStatement(sql: StoreSQL.selectProfiles), arguments: [namespace])
    }

    func putText(profile: String, namespace: String, key: String, text: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        try StoreSQL.execute(db, StoreSQL.upsert, [profile, namespace, key, text, time])
    }

    func delete(profile: String, namespace: String, key: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        try StoreSQL.execute(db, StoreSQL.deleteDocument, [profile, namespace, key])
    }

    func publish(_ payload: String, on channel: String) throws {
        guard let events else { throw StoreError(.invalidArgument, "events are published in a transaction, not a read") }
        events.append(payload, on: channel)
    }

    func claim(profile: String, key: String, method: String, paramsDigest: String) throws {
        guard let claims else { throw StoreError(.invalidArgument, "claims are made in a transaction, not a read") }
        try StoreSQL.execute(db, StoreSQL.insertClaim, [profile, key, method, claims.digest(paramsDigest), time])
    }
}
