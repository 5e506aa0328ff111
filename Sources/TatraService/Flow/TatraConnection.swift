import PayRPCCore
import PayRPCJSON
import PayRPCSync

/// The tatra state of one connection, kept on the connection (``ConnectionSession/object(_:orMake:)``)
/// as one reference: reading it costs a lookup by class, and changing it never re-boxes the state
/// (which a value type stored on the connection would, once per change, on the executePayment path).
final class TatraConnection: Sendable {
    /// What the lock guards: the flow state, and the buffer the connection's confirmations are
    /// written into (not part of the state: only its storage is kept, for the next one).
    private struct Guarded: Sendable {
        var state = TatraConnectionState()
        var confirmation = UTF8Text()
    }

    private let guarded = Lock(Guarded())

    /// The connection's tatra state, created on first use.
    static func of(_ connection: ConnectionSession) -> TatraConnection {
        connection.object(TatraConnection.self) { TatraConnection() }
    }

    /// Reads and changes the state atomically.
    func withState<R: Sendable, E: Error>(_ body: (inout TatraConnectionState) throws(E) -> R) throws(E) -> R {
        try guarded.withLock { (value) throws(E) -> R in try body(&value.state) }
    }

    /// Keeps `make(serial)` as the flow's payment awaiting authorization
    /// (``TatraConnectionState/execute(_:)``) and returns its confirmation, written by `write` into
    /// the connection's confirmation buffer, under one lock.
    ///
    /// The buffer is the last confirmation's: once the engine has written that one into its
    /// response and dropped it, nothing else holds the storage, and `write` fills it again
    /// (``UTF8Text/rewrite(count:_:)``) instead of allocating a text per payment and freeing it
    /// after the response (about 200 instructions a `tatra.executePayment`). A confirmation still
    /// held elsewhere is never overwritten: the buffer then gets new storage.
    func execute(_ make: (UInt64) -> PendingPayment, confirmation write: (inout UTF8Text) -> Void) -> UTF8Text {
        guarded.withLock { guarded in
            guarded.state.execute(make)
            write(&guarded.confirmation)
            return guarded.confirmation
        }
    }
}
