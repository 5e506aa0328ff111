import PayRPCCore

/// A value behind a lock, shared between the store and its writer queue.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = Mutex()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The current value.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
