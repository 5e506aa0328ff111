/// A value made the first time it is read, once, by whichever thread reads it first; later reads
/// take the lock and return the same value.
///
/// For what start-up need not make: a method's compiled params schema, the schema definitions a
/// method publishes. A server that never reads them never pays for them.
public final class LazyValue<Value: Sendable>: Sendable {
    private let state: Lock<Value?>
    private let make: @Sendable () -> Value

    /// A value that `make` makes on first read.
    public init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        state = Lock(nil)
    }

    /// The value, made now if this is the first read.
    public var value: Value {
        state.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
