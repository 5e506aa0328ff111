/// Counters of a store's writer, for benchmarks and health reports.
///
/// `writes / commits` is the group-commit factor: with durable (`synchronous=FULL`) commits,
/// each commit is one fsync of the write-ahead log.
public struct StoreStatistics: Sendable, Equatable {
    /// Write operations run by the writer (put, delete, update, reset, idempotency claims and
    /// completions), whether they succeeded or failed.
    public var writes: Int = 0
    /// Write operations that failed (their own callers got the error; the rest of their batch
    /// committed).
    public var failedWrites: Int = 0
    /// Transactions committed: one per batch of writes that waited together.
    public var commits: Int = 0
    /// Expired idempotency keys deleted (on open and periodically).
    public var expiredIdempotencyKeys: Int = 0

    /// Zero counters.
    public init() {}
}
