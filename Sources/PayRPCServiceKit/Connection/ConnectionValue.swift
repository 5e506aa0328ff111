import PayRPCCore
import PayRPCJSON
import PayRPCSync

/// A service's value for one connection (a running flow, a pending payment), kept on the
/// connection (``PayRPCCore/ConnectionSession/object(_:orMake:)``) until it closes, with a text
/// buffer that the answers the service writes from it are reused from.
///
/// One reference per connection: reading it is a lookup by type, and changing the value never
/// re-boxes it, as a value stored on the connection would on every change. The text buffer is the
/// last answer's (``withValue(writing:)``): once the engine has written that answer out and
/// dropped it, nothing else holds the storage and the next answer is written over it
/// (``TextTemplate/fill(into:_:)``) instead of being allocated and freed again. Why this shape is
/// fast: docs/benchmarks.md, "Fast paths of the kit".
public final class ConnectionValue<Value: Sendable>: Sendable {
    /// What the lock guards: the value, and the buffer of the last answer (only its storage is
    /// kept, for the next one).
    @usableFromInline
    struct Guarded: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var text = UTF8Text()

        @inlinable
        init(value: Value) {
            self.value = value
        }
    }

    @usableFromInline let guarded: Lock<Guarded>

    @inlinable
    init(_ value: Value) {
        guarded = Lock(Guarded(value: value))
    }

    /// The connection's value of this type, made by `initial` on first use.
    @inlinable
    public static func of(_ connection: ConnectionSession, initial: () -> Value) -> ConnectionValue {
        connection.object(ConnectionValue.self) { ConnectionValue(initial()) }
    }

    /// Reads and changes the value atomically.
    /// - Throws: What `body` throws; the value keeps the changes made before.
    @inlinable
    public func withValue<R: Sendable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try guarded.withLock { (guarded) throws(E) -> R in try body(&guarded.value) }
    }

    /// Changes the value and writes an answer into the connection's text buffer, under one lock;
    /// returns the answer. `body` gets the buffer holding the last answer: write over it
    /// (``TextTemplate/fill(into:_:)``, ``PayRPCJSON/UTF8Text/rewrite(count:_:)``), which reuses
    /// its storage when the last answer has been sent.
    @inlinable
    public func withValue(writing body: (inout Value, inout UTF8Text) -> Void) -> UTF8Text {
        guarded.withLock { guarded in
            body(&guarded.value, &guarded.text)
            return guarded.text
        }
    }
}
