import Foundation
import PayRPCCore

/// An ``EventLoop`` on a thread of its own, for tests that drive the engine without sockets:
/// the in-memory stand-in for the libuv loop (jobs run in order on one thread; timers fire on it).
public final class ThreadEventLoop: EventLoop, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var timers: [(deadline: ContinuousClock.Instant, job: ScheduledJob, body: @Sendable () -> Void)] = []
    private var stopped = false
    private var threadID: pthread_t?

    public init() {
        // The thread keeps the loop alive until stop() ends it: freeing the loop under a running
        // thread would be a use after free.
        let thread = Thread { self.runLoop() }
        thread.name = "test-event-loop"
        thread.start()
        condition.lock()
        while threadID == nil { condition.wait() }
        condition.unlock()
    }

    public var inLoopThread: Bool {
        guard let threadID else { return false }
        return pthread_equal(pthread_self(), threadID) != 0
    }

    public func execute(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        let handle = ScheduledJob()
        condition.lock()
        timers.append((ContinuousClock.now + delay, handle, job))
        condition.signal()
        condition.unlock()
        return handle
    }

    /// Runs `body` on the loop thread and waits for its result.
    public func submit<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        execute { box.set(body()) }
        return box.wait()
    }

    /// Stops the thread (pending jobs are dropped).
    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        condition.lock()
        threadID = pthread_self()
        condition.broadcast()
        while !stopped {
            if !jobs.isEmpty {
                let batch = jobs
                jobs.removeAll()
                condition.unlock()
                for job in batch { job() }
                condition.lock()
                continue
            }
            let now = ContinuousClock.now
            if let index = timers.indices.min(by: { timers[$0].deadline < timers[$1].deadline }) {
                if timers[index].deadline <= now {
                    let timer = timers.remove(at: index)
                    condition.unlock()
                    if !timer.job.isCancelled { timer.body() }
                    condition.lock()
                    continue
                }
                let wait = now.duration(to: timers[index].deadline)
                let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
                _ = condition.wait(until: Date().addingTimeInterval(seconds))
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }
}

/// A one-shot value handed from one thread to another.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ newValue: T) {
        condition.lock()
        value = newValue
        condition.signal()
        condition.unlock()
    }

    func wait() -> T {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
