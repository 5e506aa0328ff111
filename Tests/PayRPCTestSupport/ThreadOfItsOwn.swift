import Foundation
import Testing

/// A test trait that runs each test (each case of a parameterized one) on a thread of its own
/// instead of the cooperative pool: `@Test(.onThreadOfItsOwn)` for a test that blocks or must
/// not queue for the pool, `@Test(.longComputation)` for one that computes for a long time; on a
/// suite, for all its tests.
///
/// Swift Testing runs tests in parallel on the cooperative pool, whose threads are as many as the
/// cores: two on this machine. A test that blocks or computes for long without suspending holds
/// one of them until it ends, and every other test's tasks queue behind it. Under CI's
/// AddressSanitizer that queue grew to minutes, and tests that bound how long something may take
/// (a store call begun with `async let`, a task that must begin) failed for want of a thread, not
/// of a fault. On a thread of its own a test begins at once and competes for the cores the way any
/// thread does, preemptively. Long computations run one at a time (``longComputation``): all of
/// them at once starved every other thread of the cores instead (a pipe test's reader waited 10 s
/// for a byte).
///
/// The test body keeps its task, so `#expect`, `Issue.record` and task-locals work as anywhere;
/// its structured child tasks (`async let`, task groups) run on the same thread, each while the
/// others are suspended, so a child must not block that thread waiting for a sibling. Calls to
/// actors and continuations resumed elsewhere return to it.
public struct ThreadOfItsOwnTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether the test waits for the one lane of long computations before it begins.
    let oneAtATime: Bool

    /// The lane of long computations: one at a time, so that they take at most one core.
    private static let computations = DispatchSemaphore(value: 1)

    /// Applies to every test of a suite it is given to, nested suites included.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadTaskExecutor(name: test.name, gate: oneAtATime ? Self.computations : nil)
        defer { executor.stop() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == ThreadOfItsOwnTrait {
    /// Runs each test on a thread of its own rather than the cooperative pool
    /// (``ThreadOfItsOwnTrait``).
    public static var onThreadOfItsOwn: Self { Self(oneAtATime: false) }

    /// Runs each test on a thread of its own, one such test at a time across the whole run: for
    /// tests that compute for a long time (``ThreadOfItsOwnTrait``).
    public static var longComputation: Self { Self(oneAtATime: true) }
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
    /// the first 15 bytes). With a `gate`, the thread takes it before it runs a job and gives it
    /// back once stopped: jobs wait, holding no other thread, until it is free.
    public init(name: String, gate: DispatchSemaphore? = nil) {
        let thread = Thread { [self] in
            gate?.wait()
            runJobs()
            gate?.signal()
        }
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
