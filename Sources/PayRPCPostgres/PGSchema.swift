import PayRPCStore
/// The PostgreSQL store's schema, as append-only named migrations (as ``StoreSchema`` for
/// SQLite): a released migration is never edited; a change is a new one after the others.
///
/// They run in one transaction under a transaction-level advisory lock, so several instances
/// starting at once apply each migration exactly once and the others wait, then see it applied
/// (`payrpc data migrate --store …` runs them ahead of a deployment; `serve` runs what is missing).
enum PGSchema {
    /// The advisory lock migrations hold (`pg_advisory_xact_lock(space, 1)`).
    static let migrationLock = 1

    /// The migrations, in order: identifier and SQL.
    static let migrations: [(id: String, sql: String)] = [
        (
            "v1 documents, idempotency keys, events, timers",
            """
            CREATE TABLE payrpc_document (
                profile text COLLATE "C" NOT NULL CHECK (length(profile) BETWEEN 1 AND 256),
                namespace text COLLATE "C" NOT NULL CHECK (length(namespace) BETWEEN 1 AND 256),
                key text COLLATE "C" NOT NULL CHECK (length(key) BETWEEN 1 AND 1024),
                value text NOT NULL,
                updated_at bigint NOT NULL CHECK (updated_at >= 0),
                PRIMARY KEY (profile, namespace, key)
            );
            CREATE TABLE payrpc_idempotency_key (
                profile text COLLATE "C" NOT NULL CHECK (length(profile) BETWEEN 1 AND 256),
                key text COLLATE "C" NOT NULL CHECK (length(key) BETWEEN 1 AND 1024),
                method text NOT NULL CHECK (length(method) >= 1),
                params_digest text NOT NULL,
                outcome text,
                created_at bigint NOT NULL CHECK (created_at >= 0),
                completed_at bigint CHECK (completed_at >= created_at),
                owner bigint NOT NULL,
                CHECK ((outcome IS NULL) = (completed_at IS NULL)),
                PRIMARY KEY (profile, key)
            );
            CREATE INDEX payrpc_idempotency_key_by_created_at ON payrpc_idempotency_key (created_at);
            CREATE TABLE payrpc_meta (
                name text PRIMARY KEY,
                value text NOT NULL
            );
            CREATE TABLE payrpc_usage (
                id integer PRIMARY KEY CHECK (id = 1),
                bytes bigint NOT NULL
            );
            CREATE TABLE payrpc_event (
                seq bigserial PRIMARY KEY,
                channel text NOT NULL,
                payload text NOT NULL,
                created_at bigint NOT NULL
            );
            CREATE INDEX payrpc_event_by_created_at ON payrpc_event (created_at);
            CREATE TABLE payrpc_timer (
                kind text COLLATE "C" NOT NULL,
                key text COLLATE "C" NOT NULL,
                due_at bigint NOT NULL,
                payload text NOT NULL,
                owner bigint,
                PRIMARY KEY (kind, key)
            );
            CREATE INDEX payrpc_timer_by_due_at ON payrpc_timer (due_at);
            """
        ),
        (
            // The outboxes' tries across instances are claims in payrpc_idempotency_key with
            // their timers on the events (the kit's SharedDeliveries): this table was never used.
            "v2 no timer table",
            "DROP TABLE payrpc_timer"
        ),
    ]

    /// Applies the migrations not applied yet and returns the identifiers of all applied ones.
    /// - Throws: ``StoreError`` (`unavailable`, or `database` when a migration fails: nothing of
    ///   it is kept).
    static func migrate(_ connection: PGConnection) throws(StoreError) -> [String] {
        do {
            try connection.execute("BEGIN")
            try connection.execute("SELECT pg_advisory_xact_lock(\(PGPresence.lockSpace), \(migrationLock))")
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS payrpc_migration (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            var applied = Set(try connection.execute("SELECT id FROM payrpc_migration").rows.compactMap { $0[0] })
            for migration in migrations where !applied.contains(migration.id) {
                try connection.execute(migration.sql)
                try connection.execute("INSERT INTO payrpc_migration (id) VALUES ($1)", [migration.id])
                applied.insert(migration.id)
            }
            try connection.execute("COMMIT")
            return migrations.map(\.id).filter { applied.contains($0) }
        } catch {
            do {
                try connection.execute("ROLLBACK")
            } catch {
                // Not reported: the migration's error, thrown below, is. A ROLLBACK fails only
                // when the connection broke, and the server rolls back by itself a transaction
                // whose connection ended.
            }
            throw error
        }
    }

    /// The identifiers of the applied migrations, in order (none when the schema was never made).
    /// - Throws: ``StoreError``.
    static func applied(_ connection: PGConnection) throws(StoreError) -> [String] {
        let exists = try connection.execute("SELECT to_regclass('payrpc_migration') IS NOT NULL").scalar == "t"
        guard exists else { return [] }
        let applied = Set(try connection.execute("SELECT id FROM payrpc_migration").rows.compactMap { $0[0] })
        return migrations.map(\.id).filter { applied.contains($0) }
    }
}
