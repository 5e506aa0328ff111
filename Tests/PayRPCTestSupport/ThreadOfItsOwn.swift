import Foundation
import Testing

/// A test trait that runs each test (each case of a parameterized one) on a thread of its own
/// instead of the cooperative pool: `@Test(.onThreadOfItsOwn)`, or on a suite for all its tests.
///
/// Swift Testing runs tests in parallel on the cooperative pool, whose threads are as many as the
/// cores: two on this machine. A test that computes for a long time without suspending (a
/// differential comparison over thousands of documents, a schema walk) holds one of them until it
/// ends; two such tests hold both, and every other test's tasks wait behind them. Under CI's
/// AddressSanitizer that wait reached 250 s, and tests that bound how long something may take (a
/// store call begun with `async let`, a server's stop) failed for want of a thread, not of a fault.
/// On a thread of its own the test competes for the cores the way any thread does, preemptively,
/// and the pool stays free.
///
/// The test body keeps its task, so `#expect`, `Issue.record` and task-locals work as anywhere;
/// its structured child tasks (`async let`, task groups) run on the same thread, each while the
/// others are suspended, so a child must not block that thread waiting for a sibling. Calls to
/// actors and continuations resumed elsewhere return to it.
public struct ThreadOfItsOwnTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is given to, nested suites included.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadTaskExecutor(name: test.name)
        defer { executor.stop() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == ThreadOfItsOwnTrait {
    /// Runs each test on a thread of its own rather than the cooperative pool
    /// (``ThreadOfItsOwnTrait``).
    public static var onThreadOfItsOwn: Self { Self() }
}

/// A task executor that runs the jobs given to it in order on one thread it starts for itself:
/// what ``ThreadOfItsOwnTrait`` runs a test on.
///
/// Written by hand because neither the standard library nor Foundation offers an executor backed
/// by a thread of its own on Linux (Dispatch queues run on the same global pool).
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts the executor's thread, named `name` for debuggers and sanitizer reports (Linux keeps
    /// the first 15 bytes).
    public init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if stopped {
            // A job may still arrive after the preference's scope ended (the task's next step
            // after it); the global executor runs it instead of it being lost.
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already given have run; later jobs go to the global executor.
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        let me = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            let finished = batch.isEmpty && stopped
            condition.unlock()
            if finished { return }
            for job in batch { job.runSynchronously(on: me) }
        }
    }
}
