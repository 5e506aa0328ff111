import Synchronization

/// A value behind a lock that closures share by reference (a `Mutex` alone cannot be captured:
/// it is noncopyable): the store and its writer queue.
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// The current value.
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}
