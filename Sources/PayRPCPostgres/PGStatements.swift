import PayRPCStore
/// The statements of the PostgreSQL store's hot paths, prepared once per connection (parsing
/// and planning them again on every call would cost more than running them). Table names carry
/// a `payrpc_` prefix, so the store can share a database with other applications.
enum PGStatements {
    /// A document's size as the size limit counts it (``StoreConfiguration/maximumBytes``).
    static let documentBytes = "octet_length(profile) + octet_length(namespace) + octet_length(key) + octet_length(value) + 32"

    static let selectValue = PGStatement(
        name: "payrpc_select_value",
        sql: "SELECT value FROM payrpc_document WHERE profile = $1 AND namespace = $2 AND key = $3", parameterCount: 3)
    /// The documents of a namespace whose keys start with $3, by key (bytes: the C collation).
    static let selectPrefixed = PGStatement(
        name: "payrpc_select_prefixed",
        sql: """
            SELECT key, value FROM payrpc_document
            WHERE profile = $1 AND namespace = $2 AND key >= $3 AND starts_with(key, $3) ORDER BY key
            """,
        parameterCount: 3)
    static let selectProfiles = PGStatement(
        name: "payrpc_select_profiles",
        sql: "SELECT DISTINCT profile FROM payrpc_document WHERE namespace = $1 ORDER BY profile", parameterCount: 1)
    static let upsert = PGStatement(
        name: "payrpc_upsert",
        sql: """
            INSERT INTO payrpc_document (profile, namespace, key, value, updated_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (profile, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """,
        parameterCount: 5)
    /// ``upsert`` that answers the size of the document it replaced (0: none), for the size limit.
    static let upsertCounting = PGStatement(
        name: "payrpc_upsert_counting",
        sql: """
            WITH old AS (
                SELECT \(documentBytes) AS bytes FROM payrpc_document
                WHERE profile = $1 AND namespace = $2 AND key = $3 FOR UPDATE
            ), written AS (
                INSERT INTO payrpc_document (profile, namespace, key, value, updated_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (profile, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            )
            SELECT coalesce((SELECT bytes FROM old), 0)
            """,
        parameterCount: 5)
    static let deleteDocument = PGStatement(
        name: "payrpc_delete",
        sql: "DELETE FROM payrpc_document WHERE profile = $1 AND namespace = $2 AND key = $3", parameterCount: 3)
    /// ``deleteDocument`` that answers the size of what it deleted, for the size limit.
    static let deleteCounting = PGStatement(
        name: "payrpc_delete_counting",
        sql: """
            DELETE FROM payrpc_document WHERE profile = $1 AND namespace = $2 AND key = $3 RETURNING \(documentBytes)
            """,
        parameterCount: 3)
    /// Adds $1 to the bytes in use and answers the new total.
    static let addUsage = PGStatement(
        name: "payrpc_add_usage",
        sql: "UPDATE payrpc_usage SET bytes = bytes + $1 WHERE id = 1 RETURNING bytes", parameterCount: 1)

    /// `NOTIFY $1, $2`, sent inside a transaction: delivered to the listeners at its commit.
    static let notify = PGStatement(name: "payrpc_notify", sql: "SELECT pg_notify($1, $2)", parameterCount: 2)

    /// Adds an event to the outbox and notifies the listeners with its sequence number, its
    /// channel and (when it fits in a notification) its payload: `SEQ CHANNEL\nPAYLOAD` or `SEQ`.
    static let publishEvent = PGStatement(
        name: "payrpc_publish_event",
        sql: """
            WITH event AS (
                INSERT INTO payrpc_event (channel, payload, created_at) VALUES ($1, $2, $3) RETURNING seq
            )
            SELECT pg_notify('\(PGEventBus.channel)', CASE WHEN octet_length($1) + octet_length($2) < \(PGEventBus.inlineLimit)
                THEN seq::text || ' ' || $1 || chr(10) || $2 ELSE seq::text END) FROM event
            """,
        parameterCount: 3)
    static let resetDocuments = PGStatement(
        name: "payrpc_reset_documents",
        sql: "DELETE FROM payrpc_document WHERE profile = $1 RETURNING \(documentBytes)", parameterCount: 1)
    static let resetKeys = PGStatement(
        name: "payrpc_reset_keys", sql: "DELETE FROM payrpc_idempotency_key WHERE profile = $1", parameterCount: 1)

    // MARK: Idempotency

    static let selectClaim = PGStatement(
        name: "payrpc_select_claim",
        sql: """
            SELECT method, params_digest, outcome, created_at, owner FROM payrpc_idempotency_key
            WHERE profile = $1 AND key = $2
            """,
        parameterCount: 2)
    static let insertClaim = PGStatement(
        name: "payrpc_insert_claim",
        sql: """
            INSERT INTO payrpc_idempotency_key (profile, key, method, params_digest, outcome, created_at, completed_at, owner)
            VALUES ($1, $2, $3, $4, NULL, $5, NULL, $6)
            ON CONFLICT (profile, key) DO UPDATE SET method = excluded.method, params_digest = excluded.params_digest,
                outcome = NULL, created_at = excluded.created_at, completed_at = NULL, owner = excluded.owner
            """,
        parameterCount: 6)
    static let completeClaim = PGStatement(
        name: "payrpc_complete_claim",
        sql: """
            UPDATE payrpc_idempotency_key SET outcome = $1, completed_at = greatest(created_at, $2)
            WHERE profile = $3 AND key = $4 AND outcome IS NULL AND owner = $5
            """,
        parameterCount: 5)
    static let abandonClaim = PGStatement(
        name: "payrpc_abandon_claim",
        sql: "DELETE FROM payrpc_idempotency_key WHERE profile = $1 AND key = $2 AND outcome IS NULL AND owner = $3",
        parameterCount: 3)
    /// Whether the store instance $1 is alive: it holds its advisory lock (see ``PGPresence``).
    static let ownerAlive = PGStatement(
        name: "payrpc_owner_alive",
        sql: """
            SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = \(PGPresence.lockSpace)::oid
                AND objid = $1::bigint::oid AND objsubid = 2 AND granted)
            """,
        parameterCount: 1)

    // MARK: A commit's fate

    /// The transaction's identifier, asked for just before its `COMMIT` (see ``PGDocuments/commit()``).
    static let currentTransaction = PGStatement(
        name: "payrpc_current_transaction", sql: "SELECT pg_current_xact_id()::text", parameterCount: 0)
    /// What became of transaction $1: `committed`, `aborted`, `in progress`, or NULL when it is too
    /// old for the server to know (or never got an identifier).
    static let transactionStatus = PGStatement(
        name: "payrpc_transaction_status", sql: "SELECT pg_xact_status($1::xid8)", parameterCount: 1)

    /// Every statement, prepared on each new connection.
    static let all = [
        selectValue, selectPrefixed, selectProfiles, upsert, upsertCounting, deleteDocument, deleteCounting, addUsage, notify,
        publishEvent, resetDocuments, resetKeys,
        selectClaim, insertClaim, completeClaim, abandonClaim, ownerAlive, currentTransaction, transactionStatus,
    ]
}
