import Dispatch
import Logging
import PayRPCSync
import PayRPCStore

/// A fixed number of PostgreSQL connections, each used by one job at a time on a serial queue
/// of its own: the store's threads, where every blocking libpq call happens (never on an event
/// loop; a call's task awaits the job's answer).
///
/// Jobs take the first idle connection, else wait in arrival order. A connection that broke (the
/// server restarted) is replaced on its next job; when the server cannot be reached, that job
/// fails at once with ``StoreError/Code/unavailable`` (connection refused comes back in
/// microseconds), so calls fail fast while the server is down and succeed again as soon as it is
/// back. Concurrent jobs commit on different connections, so PostgreSQL flushes their commits
/// together (its own group commit): the pool's size is how many transactions can share a flush.
final class PGPool: Sendable {
    /// One connection's place in the pool: its queue and its connection.
    final class Worker: Sendable {
        let index: Int
        let queue: DispatchQueue
        /// Used by the jobs on `queue`, one at a time; behind a lock so that the type says what
        /// the queue guarantees (an uncontended lock costs nanoseconds beside a round trip).
        private let slot = Lock<PGConnection?>(nil)

        init(index: Int, label: String) {
            self.index = index
            queue = DispatchQueue(label: "\(label).\(index)")
        }

        /// The worker's connection; nil before the first job and once it was dropped (a dropped
        /// connection is closed).
        var connection: PGConnection? {
            get { slot.withLock { $0 } }
            set { slot.withLock { $0 = newValue } }
        }
    }

    private struct State {
        var idle: [Worker]
        var waiting: [@Sendable (Worker) -> Void] = []
        var waitingStart = 0
        var closed = false
    }

    let target: PostgresURL
    let applicationName: String
    private let workers: [Worker]
    private let state: Lock<State>
    private let setUp: @Sendable (PGConnection) throws(StoreError) -> Void
    private let logger: Logger

    /// - Parameters:
    ///   - size: how many connections (1 or more).
    ///   - setUp: run on every new connection before its first job (session settings).
    init(
        target: PostgresURL, size: Int, applicationName: String, logger: Logger,
        setUp: @escaping @Sendable (PGConnection) throws(StoreError) -> Void
    ) {
        self.target = target
        self.applicationName = applicationName
        self.logger = logger
        self.setUp = setUp
        let workers = (0..<max(1, size)).map { Worker(index: $0, label: "payrpc.postgres") }
        self.workers = workers
        state = Lock(State(idle: workers.reversed()))
    }

    /// Runs `body` with a connection on that connection's queue and returns its value.
    /// `body` gets a ``PGSession`` that reconnects when asked (see ``PGSession/connection()``).
    /// - Throws: ``StoreError`` `closed` after ``close()``, or what `body` throws.
    func run<R: Sendable>(_ body: @escaping @Sendable (PGSession) throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable (Worker) -> Void = { [self] worker in
                let session = PGSession(worker: worker, pool: self)
                let result = Result(catching: { try body(session) })
                release(worker)
                continuation.resume(with: result)
            }
            if !schedule(job) { continuation.resume(throwing: StoreError(.closed, "the store was closed")) }
        }
    }

    /// Runs `body` like ``run(_:)`` and blocks the calling thread until it is done: for the
    /// reads a server makes while it starts, before anything else runs.
    func runBlocking<R: Sendable>(_ body: @escaping @Sendable (PGSession) throws -> R) throws -> R {
        let done = DispatchSemaphore(value: 0)
        let outcome = Lock<Result<R, any Error>?>(nil)
        let job: @Sendable (Worker) -> Void = { [self] worker in
            let result = Result(catching: { try body(PGSession(worker: worker, pool: self)) })
            release(worker)
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard schedule(job) else { throw StoreError(.closed, "the store was closed") }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Starts `job` on an idle worker, or queues it for the next one released; false when the
    /// pool is closed (the job never runs).
    private func schedule(_ job: @escaping @Sendable (Worker) -> Void) -> Bool {
        let start: Worker?? = state.withLock { state in
            if state.closed { return .none }
            if let worker = state.idle.popLast() { return .some(worker) }
            state.waiting.append(job)
            return .some(nil)
        }
        switch start {
        case .none: return false
        case .some(let worker?): worker.queue.async { job(worker) }
        case .some(nil): break
        }
        return true
    }

    /// Hands the worker to the next waiting job, or back to the idle list.
    private func release(_ worker: Worker) {
        let next: (@Sendable (Worker) -> Void)? = state.withLock { state in
            guard state.waitingStart < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: true)
                state.waitingStart = 0
                state.idle.append(worker)
                return nil
            }
            let job = state.waiting[state.waitingStart]
            state.waitingStart += 1
            return job
        }
        if let next { worker.queue.async { next(worker) } }
    }

    /// Refuses new jobs, waits for the running and queued ones, then closes every connection.
    func close() {
        state.withLock { $0.closed = true }
        for worker in workers {
            worker.queue.sync { worker.connection = nil }
        }
    }

    /// Closes every connection at once without waiting for anything (a process killed, for the
    /// crash clause of the contract): the server rolls back what they had not committed.
    func abandon() {
        state.withLock { $0.closed = true }
        for worker in workers {
            worker.queue.async { worker.connection = nil }
        }
    }

    /// A connected, set-up connection (made now).
    /// - Throws: ``StoreError`` `unavailable`.
    fileprivate func connect() throws(StoreError) -> PGConnection {
        let connection = try PGConnection(target, applicationName: applicationName)
        try setUp(connection)
        return connection
    }

    fileprivate func logDiscard(_ worker: Worker, because error: StoreError) {
        logger.debug(
            "store: a pooled connection broke between jobs; replacing it",
            metadata: ["store.connection": .stringConvertible(worker.index), "store.error": "\(error)"])
    }

    fileprivate func logReconnect(_ worker: Worker) {
        logger.notice(
            "store: reconnected to PostgreSQL",
            metadata: [
                "store.url": .string(target.redacted), "store.connection": .stringConvertible(worker.index),
            ])
    }
}

/// A job's hold on one of the pool's connections, on that connection's queue.
struct PGSession {
    fileprivate let worker: PGPool.Worker
    fileprivate let pool: PGPool

    /// The worker's connection, connected now if it has none or the one it had broke. Results
    /// a previous job left owed (a read's `COMMIT`) are read first.
    /// - Throws: ``StoreError`` `unavailable` when the server cannot be reached.
    func connection() throws(StoreError) -> PGConnection {
        if let connection = worker.connection, !connection.isBroken {
            if connection.owed > 0 {
                do {
                    // The results are a job's that has answered already (a read's `COMMIT`):
                    // a statement's error among them changes nothing for anyone, so it is dropped.
                    _ = try connection.drain()
                } catch {
                    // The connection broke while they were read: it is dropped and replaced below.
                    pool.logDiscard(worker, because: error)
                }
            }
            if !connection.isBroken && connection.owed == 0 { return connection }
        }
        let hadOne = worker.connection != nil
        worker.connection = nil
        let connection = try pool.connect()
        worker.connection = connection
        if hadOne { pool.logReconnect(worker) }
        return connection
    }

    /// Drops the worker's connection (it broke, or is in a state the job cannot leave cleanly).
    func discard() {
        worker.connection = nil
    }
}
