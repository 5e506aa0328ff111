import GRDB
import Logging
import PayRPCCore
import PayRPCSync
import PayRPCStore

/// Commits the writes of concurrent callers together: one transaction and one fsync for every
/// write waiting at that moment.
///
/// Why: a durable (`synchronous=FULL`) single-row transaction costs an fsync, and runs at
/// 2,000–3,000/s on the machines payrpc targets, while one transaction of many rows runs at
/// tens of thousands of rows per second. So callers enqueue their write and wait; one drain on
/// GRDB's writer queue takes everything queued, runs each write in its own savepoint (a write
/// that fails rolls back only itself and fails only its caller), commits once, and then answers
/// every caller. Writes that arrive during the commit's fsync form the next batch.
///
/// If an error makes SQLite roll back the whole transaction (disk full, I/O error), the write
/// that hit it fails and the writes before it are run again in a fresh transaction.
final class GroupCommitter: Sendable {
    private let pool: DatabasePool
    private let logger: Logger
    private let maximumBatchSize: Int
    /// Runs at the start of every batch, inside the transaction and its own savepoint, and
    /// returns how many expired idempotency keys it deleted; a failure of it is logged and rolled
    /// back without touching the batch.
    private let maintenance: @Sendable (Database) throws -> Int

    /// What callers and the drain share.
    private struct Queue {
        var pending: [any PendingWrite] = []
        var draining = false
        var closed = false
        var counters = StoreStatistics()
    }

    private let queue = Lock(Queue())

    init(
        pool: DatabasePool, logger: Logger, maximumBatchSize: Int,
        maintenance: @escaping @Sendable (Database) throws -> Int
    ) {
        self.pool = pool
        self.logger = logger
        self.maximumBatchSize = max(1, maximumBatchSize)
        self.maintenance = maintenance
    }

    /// The counters so far.
    var statistics: StoreStatistics { queue.withLock { $0.counters } }

    /// How many writes wait for the next batch (for tests that line up a batch).
    var pendingCount: Int { queue.withLock { $0.pending.count } }

    /// Adds to the expired-keys counter (the maintenance job reports here).
    func countExpiredKeys(_ count: Int) {
        queue.withLock { $0.counters.expiredIdempotencyKeys += count }
    }

    /// Runs `body` in the next batch and returns its value once that batch has committed.
    /// - Throws: ``StoreError`` for database failures and after ``close()``, or what `body` throws.
    func write<Value: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let write = WriteOperation(operation: operation, body: body, continuation: continuation)
            let startDrain: Bool? = queue.withLock { queue in
                if queue.closed { return nil }
                queue.pending.append(write)
                if queue.draining { return false }
                queue.draining = true
                return true
            }
            switch startDrain {
            case nil:
                write.fail(StoreError(.closed, "\(operation) after the store was closed"))
                write.finish(commitError: nil)
            case true?:
                pool.asyncWriteWithoutTransaction { [self] db in drain(db) }
            case false?:
                break
            }
        }
    }

    /// Refuses new writes; those already queued still commit. Returns false when it was
    /// already closed.
    func close() -> Bool {
        queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
        }
    }

    /// Commits batches until the queue is empty. Runs on GRDB's writer queue.
    private func drain(_ db: Database) {
        while true {
            let batch: [any PendingWrite] = queue.withLock { queue in
                guard !queue.pending.isEmpty else {
                    queue.draining = false
                    return []
                }
                let count = min(queue.pending.count, maximumBatchSize)
                let batch = Array(queue.pending.prefix(count))
                queue.pending.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            commit(batch, db)
        }
    }

    /// Runs `batch` in one transaction and answers every caller.
    private func commit(_ batch: [any PendingWrite], _ db: Database) {
        var remaining = batch
        var maintained = false
        while !remaining.isEmpty {
            do {
                try db.beginTransaction(.immediate)
            } catch {
                logger.error("store: cannot begin a write transaction", metadata: ["store.error": "\(error)"])
                for write in remaining { write.fail(error) }
                answer(remaining, commitError: nil, committed: false)
                return
            }
            if !maintained {
                maintained = true
                runMaintenance(db)
                if !db.isInsideTransaction { continue }
            }
            var lost: Int?
            for (position, write) in remaining.enumerated() {
                if !runInSavepoint(write, db) {
                    lost = position
                    break
                }
            }
            if let lost {
                // The transaction is gone: the write that broke it fails; the others run again.
                if db.isInsideTransaction { try? db.rollback() }
                let culprit = remaining.remove(at: lost)
                answer([culprit], commitError: nil, committed: false)
                for write in remaining { write.forget() }
                continue
            }
            do {
                try db.commit()
                answer(remaining, commitError: nil, committed: true)
            } catch {
                logger.error("store: commit failed", metadata: ["store.error": "\(error)"])
                try? db.rollback()
                answer(remaining, commitError: error, committed: false)
            }
            return
        }
    }

    /// Counts `writes` (and the commit), then answers their callers: counters first, so a caller
    /// that reads the statistics after its write returns sees that write counted.
    private func answer(_ writes: [any PendingWrite], commitError: (any Error)?, committed: Bool) {
        let failed = writes.filter { $0.hasFailed || commitError != nil }.count
        queue.withLock { queue in
            queue.counters.writes += writes.count
            queue.counters.failedWrites += failed
            if committed { queue.counters.commits += 1 }
        }
        for write in writes { write.finish(commitError: commitError) }
    }

    /// Runs one write in a savepoint, rolling back to it when the write fails. Returns false when
    /// the transaction itself is lost (the write has failed and must not be run again).
    private func runInSavepoint(_ write: any PendingWrite, _ db: Database) -> Bool {
        do {
            try StoreSQL.execute(db, "SAVEPOINT payrpc_write")
        } catch {
            write.fail(error)
            return false
        }
        if write.run(db) == nil {
            do {
                try StoreSQL.execute(db, "RELEASE SAVEPOINT payrpc_write")
                return true
            } catch {
                write.fail(error)
                return false
            }
        }
        guard db.isInsideTransaction else { return false }
        do {
            try StoreSQL.execute(db, "ROLLBACK TO SAVEPOINT payrpc_write")
            try StoreSQL.execute(db, "RELEASE SAVEPOINT payrpc_write")
            return true
        } catch {
            return false
        }
    }

    /// Runs the maintenance job in its own savepoint; its failure only rolls itself back.
    private func runMaintenance(_ db: Database) {
        do {
            try StoreSQL.execute(db, "SAVEPOINT payrpc_maintenance")
            do {
                let expired = try maintenance(db)
                try StoreSQL.execute(db, "RELEASE SAVEPOINT payrpc_maintenance")
                if expired > 0 { countExpiredKeys(expired) }
            } catch {
                logger.warning("store: maintenance failed", metadata: ["store.error": "\(error)"])
                try StoreSQL.execute(db, "ROLLBACK TO SAVEPOINT payrpc_maintenance")
                try StoreSQL.execute(db, "RELEASE SAVEPOINT payrpc_maintenance")
            }
        } catch {
            logger.warning("store: maintenance savepoint failed", metadata: ["store.error": "\(error)"])
        }
    }
}
