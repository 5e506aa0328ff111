import Foundation

/// Runs deeply recursive work on a thread of its own with a stack of a known size.
///
/// The gateway validates and decodes on its loop thread, the process's main thread (8 MiB of
/// stack), in a release build; a test's thread is smaller, and AddressSanitizer's debug frames are
/// several times a release build's. A test of how deep a recursive walk may go names the stack it
/// runs on instead of depending on the thread it was given.
public enum LargeStack {
    /// Runs `body` on a new thread whose stack is `bytes` long and returns what it returned (or
    /// rethrows what it threw), blocking the caller until then.
    public static func run<T: Sendable>(bytes: Int, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        let thread = Thread {
            result.value = Result { try body() }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return try result.value!.get()
    }

    /// Written by the thread before it signals, read by the caller after: the semaphore orders them.
    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        var value: Result<T, any Error>?
    }
}
