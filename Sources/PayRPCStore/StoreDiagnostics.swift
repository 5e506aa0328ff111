/// How the database is set up, as the writer connection sees it: for tests and health reports.
public struct StoreDiagnostics: Sendable, Equatable {
    /// The database file.
    public var path: String
    /// `PRAGMA journal_mode` (`wal`).
    public var journalMode: String
    /// `PRAGMA synchronous` on the writer: 2 is FULL, 1 NORMAL.
    public var synchronous: Int
    /// The writer's page cache in KiB (from `PRAGMA cache_size`).
    public var writerCacheKibibytes: Int
    /// The writer's `PRAGMA wal_autocheckpoint`, in pages.
    public var checkpointPages: Int
    /// The identifiers of the applied migrations, in the order they were registered.
    public var appliedMigrations: [String]
    /// The SQLite library version.
    public var sqliteVersion: String

    /// Diagnostics as read.
    public init(
        path: String, journalMode: String, synchronous: Int, writerCacheKibibytes: Int,
        checkpointPages: Int, appliedMigrations: [String], sqliteVersion: String
    ) {
        self.path = path
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.writerCacheKibibytes = writerCacheKibibytes
        self.checkpointPages = checkpointPages
        self.appliedMigrations = appliedMigrations
        self.sqliteVersion = sqliteVersion
    }
}
