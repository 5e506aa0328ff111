import GRDB
import Logging
import PayRPCStore

/// Checks for operators and the crash test.
extension SQLiteStateStore {
    /// Runs `PRAGMA integrity_check`; true when SQLite reports `ok`. Problems are logged.
    /// - Throws: ``StoreError`` when the check cannot run.
    public func integrityCheck() async throws -> Bool {
        let report = try await readDatabase("integrity check") { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        if report == ["ok"] { return true }
        logger.error(
            "store: integrity check failed",
            metadata: [
                "store.path": "\(path)", "store.problems": "\(report.prefix(20).joined(separator: "; "))",
            ])
        return false
    }

    /// The journal mode, `synchronous` level and applied migrations, read on the writer
    /// connection (where `synchronous` matters).
    /// - Throws: ``StoreError``.
    public func diagnostics() async throws -> StoreDiagnostics {
        let path = self.path
        do {
            return try await pool.writeWithoutTransaction { db in
                let migrator = StoreSchema.migrator
                let applied = try migrator.appliedIdentifiers(db)
                return StoreDiagnostics(
                    path: path,
                    journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
                    synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1,
                    // Negative: KiB; positive: pages of 4096 bytes.
                    writerCacheKibibytes: (try Int.fetchOne(db, sql: "PRAGMA cache_size")).map { $0 < 0 ? -$0 : $0 * 4 } ?? -1,
                    checkpointPages: try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1,
                    appliedMigrations: migrator.migrations.filter { applied.contains($0) },
                    sqliteVersion: try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "")
            }
        } catch {
            throw StoreError.from(error, operation: "reading diagnostics")
        }
    }
}
