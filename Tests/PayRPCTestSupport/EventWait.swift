import Foundation
import PayRPCProcess
import PayRPCSync

/// Waiting in tests for something that happens on another thread (a process exits, a socket
/// becomes readable), bounded by a deadline, without polling and without holding a thread of the
/// cooperative pool (two threads on this machine's two cores).
public enum EventWait {
    /// Runs the blocking `body` on a thread of its own and returns what it returns, or nil when
    /// `timeout` seconds pass first (the thread then finishes on its own and its result is
    /// dropped). For calls that block until an event: `poll(2)` with a timeout, `waitpid`.
    public static func blocking<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = ResumeOnce(continuation)
            Thread { once.resume(body()) }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { once.resume(nil) }
        }
    }

    /// Awaits `body` (a task's value, an event another task signals) and returns what it returns,
    /// or nil when `timeout` seconds pass first (the body then finishes on its own).
    public static func value<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = ResumeOnce(continuation)
            Task { once.resume(await body()) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { once.resume(nil) }
        }
    }

    /// Like ``blocking(timeout:_:)`` for synchronous callers (a `deinit`): blocks the calling
    /// thread until `body` returns or `timeout` passes.
    public static func blockingNow<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Lock<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return result.withLock { $0 }
    }
}
