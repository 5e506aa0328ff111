import GRDB
import PayRPCStore

/// The store's size limit (``StoreConfiguration/maximumBytes``), enforced by SQLite itself.
///
/// `PRAGMA max_page_count` is a setting of one connection, so it is set on the writer (the only
/// connection that adds pages) when the store opens and again whenever it changes. SQLite refuses
/// a statement that would grow the file past it with `SQLITE_FULL`, exactly as it does on a full
/// disk, so one path (``StoreError/Code/full``, then -32008 on the wire) serves both.
extension SQLiteStateStore {
    /// SQLite's own ceiling on `max_page_count`: what "no limit" sets.
    static let unlimitedPageCount: Int64 = 4_294_967_294

    /// Sets (or, with nil, removes) the size limit now, without a restart: writes refused as full
    /// succeed again once the limit is above what they need. A limit below the database's current
    /// size holds it at that size (SQLite never shrinks it for a limit): updates that fit in the
    /// pages it has, and deletes, still work.
    /// - Returns: the usage under the new limit.
    /// - Throws: ``StoreError`` when the writer cannot be reached (closed store).
    @discardableResult
    public func setMaximumBytes(_ bytes: Int64?) async throws -> StoreUsage {
        do {
            let usage = try await pool.writeWithoutTransaction { db in try Self.applyMaximumBytes(bytes, db) }
            maximumBytes.value = bytes
            return usage
        } catch {
            throw StoreError.from(error, operation: "setting the size limit")
        }
    }

    /// How much of the database is in use, and its limit, as the writer sees them.
    /// - Throws: ``StoreError`` when the writer cannot be reached (closed store).
    public func usage() async throws -> StoreUsage {
        let limit = maximumBytes.value
        do {
            return try await pool.writeWithoutTransaction { db in try Self.readUsage(db, configured: limit) }
        } catch {
            throw StoreError.from(error, operation: "reading the store's size")
        }
    }

    /// Sets `max_page_count` on the writer connection `db` for `bytes` (nil: no limit).
    static func applyMaximumBytes(_ bytes: Int64?, _ db: Database) throws -> StoreUsage {
        let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        let pages = bytes.map { max(1, $0 / pageSize) } ?? unlimitedPageCount
        try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        return try readUsage(db, configured: bytes)
    }

    static func readUsage(_ db: Database, configured: Int64?) throws -> StoreUsage {
        let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let maximum = try Int64.fetchOne(db, sql: "PRAGMA max_page_count") ?? unlimitedPageCount
        return StoreUsage(
            fileBytes: pages * pageSize, freeBytes: free * pageSize,
            maximumBytes: configured == nil ? nil : maximum * pageSize)
    }
}

/// The size of a store's database, from SQLite's page counts.
public struct StoreUsage: Sendable, Equatable {
    /// The database's pages, in bytes (the write-ahead log not included).
    public var fileBytes: Int64
    /// Of those, pages free for reuse (deleted data), in bytes.
    public var freeBytes: Int64
    /// The limit in force, in whole pages; nil: none. Above the configured limit when the database
    /// was already larger than it.
    public var maximumBytes: Int64?

    /// A usage as read.
    public init(fileBytes: Int64, freeBytes: Int64, maximumBytes: Int64?) {
        self.fileBytes = fileBytes
        self.freeBytes = freeBytes
        self.maximumBytes = maximumBytes
    }
}
