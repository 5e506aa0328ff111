import GRDB
import PayRPCJSON

/// Reads made while the server starts, before any request is served.
extension SQLiteStateStore {
    /// Every profile's document at `namespace`/`key`, read synchronously: for state the server
    /// restores while it starts (each profile's sandbox clock), when nothing else runs yet.
    /// Documents that are not valid JSON are skipped and logged.
    /// - Throws: ``StoreError`` when the database cannot be read.
    public func documentsAtStartUp(namespace: String, key: String) throws -> [(profile: String, value: JSONValue)] {
        let rows: [Row]
        do {
            rows = try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT profile, value FROM document WHERE namespace = ? AND key = ? ORDER BY profile",
                                 arguments: [namespace, key])
            }
        } catch {
            throw StoreError.from(error, operation: "reading \(namespace)/\(key) at start-up")
        }
        return rows.compactMap { row in
            let profile: String = row["profile"]
            let text: String = row["value"]
            guard let value = try? JSONValue(parsing: text) else {
                logger.warning("store: skipped an unreadable document at start-up",
                               metadata: ["profile": .string(profile), "namespace": .string(namespace), "key": .string(key)])
                return nil
            }
            return (profile, value)
        }
    }
}
