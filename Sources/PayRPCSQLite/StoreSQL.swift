import GRDB
import PayRPCStore

/// The statements of the hot paths, prepared once per connection (GRDB's statement cache):
/// parsing SQL again on every write would cost more than the write.
enum StoreSQL {
    static let selectValue = "SELECT value FROM document WHERE profile = ? AND namespace = ? AND key = ?"
    static let upsert = """
        INSERT INTO document (profile, namespace, key, value, updated_at) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (profile, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
        """
    /// The documents of a namespace whose keys start with ?3 (given three times), by key.
    static let selectPrefixed = """
        SELECT key, value FROM document
        WHERE profile = ? AND namespace = ? AND key >= ? AND substr(key, 1, length(?)) = ?
        ORDER BY key
        """
    static let selectProfiles = "SELECT DISTINCT profile FROM document WHERE namespace = ? ORDER BY profile"
    static let deleteDocument = "DELETE FROM document WHERE profile = ? AND namespace = ? AND key = ?"
    static let selectClaim =
        "SELECT method, params_digest, outcome, created_at FROM idempotency_key WHERE profile = ? AND key = ?"
    static let insertClaim = """
        INSERT OR REPLACE INTO idempotency_key (profile, key, method, params_digest, outcome, created_at, completed_at)
        VALUES (?, ?, ?, ?, NULL, ?, NULL)
        """
    static let completeClaim = """
        UPDATE idempotency_key SET outcome = ?, completed_at = max(created_at, ?)
        WHERE profile = ? AND key = ? AND outcome IS NULL
        """
    static let abandonClaim = "DELETE FROM idempotency_key WHERE profile = ? AND key = ? AND outcome IS NULL"
    static let purgeExpired = "DELETE FROM idempotency_key WHERE created_at <= ?"
    /// Completed keys created after ?2 whose outcome does not start with the seal prefix ?1.
    static let selectEarlierOutcomes = """
        SELECT profile, key FROM idempotency_key
        WHERE outcome IS NOT NULL AND substr(outcome, 1, length(?1)) <> ?1 AND created_at > ?2
        """
    static let replaceOutcome = "UPDATE idempotency_key SET outcome = ? WHERE profile = ? AND key = ?"

    /// Runs a cached statement.
    static func execute(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
