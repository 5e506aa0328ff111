import CThreadSanitizer
import Synchronization

/// A value behind a mutual-exclusion lock: the one lock type of payrpc.
///
/// It is `Synchronization.Mutex` plus what ThreadSanitizer needs to trust it. On Linux a contended
/// `Mutex` waits in a futex inside the Swift runtime, which the sanitizer does not instrument, so
/// it would see two holders that waited for each other as a race (and a suppression broad enough
/// to hide that hides real races too). In debug builds, which is where the sanitizer runs, every
/// critical section tells the sanitizer that it acquires and releases this lock
/// (`CThreadSanitizer`, a no-op unless compiled with `-sanitize=thread`); release builds compile
/// those calls out and cost exactly what `Mutex` costs.
public struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline
    let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    /// - Throws: What `body` throws; the lock is released either way.
    ///
    /// Always inlined, as `Mutex.withLock` is: merely `@inlinable`, a caller that is generic
    /// itself (`ConnectionSession.object(_:orMake:)` in PayRPCCore) called the unspecialized method, which
    /// looked up `Mutex<Value>`'s metadata at run time on every call.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            #if DEBUG
            withUnsafePointer(to: mutex) { payrpc_tsan_acquire($0) }
            defer { withUnsafePointer(to: mutex) { payrpc_tsan_release($0) } }
            #endif
            return try body(&value)
        }
    }
}
