import Foundation

/// How a ``SQLiteStateStore`` behaves; the defaults are the durable ones.
public struct StoreConfiguration: Sendable {
    /// How long a completed idempotency key answers with its first outcome; older keys are
    /// purged and a repeat of one is treated as new.
    public var idempotencyRetention: Duration = .seconds(24 * 60 * 60)
    /// How often, at most, expired idempotency keys are purged while the store runs (they are
    /// also purged on open, and an expired key is never replayed whatever this says).
    public var idempotencyPurgeInterval: Duration = .seconds(10 * 60)
    /// `PRAGMA synchronous=FULL` on the writer (fsync on every commit), so a write that returned
    /// survives a power loss. `false` uses `NORMAL`: survives a crash of the process only.
    public var synchronousFull = true
    /// How long a write waits for a lock held by another process before failing with
    /// ``StoreError/Code/busy``.
    public var busyTimeout: Duration = .seconds(5)
    /// The most SQLite connections reading at once.
    public var maximumReaderCount = 4
    /// The most writes committed in one transaction; more waiting writes go in the next one.
    public var maximumBatchSize = 1_000
    /// The most bytes the database may take (`serve --store-max-bytes`); nil: as much as the disk
    /// holds. Enforced by SQLite's `PRAGMA max_page_count` on the writer, rounded down to whole
    /// pages (4096 bytes); the write-ahead log and the key file come on top. A write that does not
    /// fit fails with ``StoreError/Code/full`` and leaves everything stored before it as it was;
    /// reads go on, deletes free space at once, and ``SQLiteStateStore/setMaximumBytes(_:)`` raises
    /// the limit without a restart.
    public var maximumBytes: Int64?
    /// The page cache of the writer's connection, in KiB (`PRAGMA cache_size`). Every durable
    /// call reads the pages it changes; documents keyed by hashes land on random pages, so a cache
    /// smaller than the store's hot pages turns each write into reads of the file (issue 19:
    /// SQLite's default 2 MiB made the writer re-read pages with `pread` on every batch). The
    /// readers keep SQLite's default; memory-mapped I/O stays off: a read error on a mapped file
    /// is a SIGBUS that kills the process, where `pread` returns an error the caller gets.
    public var writerCacheKibibytes = 32 * 1024
    /// How many pages the write-ahead log collects before the writer copies them back into the
    /// database file (`PRAGMA wal_autocheckpoint`; SQLite's default is 1,000). Rows keyed by
    /// hashes dirty a new page each, so a short log copies nearly every page it holds back once per
    /// checkpoint; a longer one copies a page changed many times once (issue 19: SQLite's own
    /// rate on random keys, 64 rows per commit, rose 1.7× with 10,000). The log grows to about
    /// 40 MiB before a checkpoint; a restart after a crash replays it.
    public var checkpointPages = 10_000
    /// The clock for `updatedAt` and idempotency expiry; tests replace it to move time.
    public var now: @Sendable () -> Date = { Date() }

    /// The defaults.
    public init() {}
}
