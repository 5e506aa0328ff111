import PayRPCSync

/// A value behind a lock that closures share by reference (a `Lock` alone cannot be captured:
/// it is noncopyable): a backend store and its writer queue.
package final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Lock<Value>

    package init(_ value: Value) { mutex = Lock(value) }

    /// The current value.
    package var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}
