import GRDB

/// A ``StoreTransaction`` on the writer's connection, inside the savepoint the
/// ``GroupCommitter`` opened for it: reads go through the writer's own page cache (no reader
/// connection, no second thread), writes stamp `updated_at` with the time the body started.
struct SQLiteTransaction: StoreTransaction {
    let db: Database
    /// `updated_at` of every write, in milliseconds since 1970.
    let time: Int64

    func getText(profile: String, namespace: String, key: String) throws -> String? {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        return try String.fetchOne(db.cachedStatement(sql: StoreSQL.selectValue), arguments: [profile, namespace, key])
    }

    func putText(profile: String, namespace: String, key: String, text: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        try StoreSQL.execute(db, StoreSQL.upsert, [profile, namespace, key, text, time])
    }

    func delete(profile: String, namespace: String, key: String) throws {
        try StoreArguments.check(profile: profile, namespace: namespace, key: key)
        try StoreSQL.execute(db, StoreSQL.deleteDocument, [profile, namespace, key])
    }
}
