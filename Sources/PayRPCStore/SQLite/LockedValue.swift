import PayRPCSync

/// A value behind a lock that closures share by reference (a `Lock` alone cannot be captured:
/// it is noncopyable): the store and its writer queue.
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Lock<Value>

    init(_ value: Value) { mutex = Lock(value) }

    /// The current value.
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}
