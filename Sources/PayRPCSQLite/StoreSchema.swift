import GRDB
import PayRPCStore

/// The database schema, as append-only named migrations: a released migration is never edited;
/// a change is a new migration registered after the others.
enum StoreSchema {
    /// The migrations, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 documents and idempotency keys") { db in
            // One row per document. Keys order by bytes (BINARY collation of UTF-8 text).
            try db.execute(
                sql: """
                    CREATE TABLE document (
                        profile TEXT NOT NULL CHECK (length(profile) BETWEEN 1 AND 256),
                        namespace TEXT NOT NULL CHECK (length(namespace) BETWEEN 1 AND 256),
                        key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 1024),
                        value TEXT NOT NULL CHECK (json_valid(value)),
                        updated_at INTEGER NOT NULL CHECK (updated_at >= 0),
                        PRIMARY KEY (profile, namespace, key)
                    ) WITHOUT ROWID;
                    """)
            // `outcome` is NULL while the call runs, then the JSON text that follows the
            // response id; `completed_at` is set exactly when `outcome` is.
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_key (
                        profile TEXT NOT NULL CHECK (length(profile) BETWEEN 1 AND 256),
                        key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 1024),
                        method TEXT NOT NULL CHECK (length(method) >= 1),
                        params_digest TEXT NOT NULL,
                        outcome TEXT,
                        created_at INTEGER NOT NULL CHECK (created_at >= 0),
                        completed_at INTEGER CHECK (completed_at >= created_at),
                        CHECK ((outcome IS NULL) = (completed_at IS NULL)),
                        PRIMARY KEY (profile, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotency_key_by_created_at ON idempotency_key (created_at);
                    """)
        }
        return migrator
    }
}
