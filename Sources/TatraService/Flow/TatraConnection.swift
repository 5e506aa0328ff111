import PayRPCCore
import PayRPCSync

/// The tatra state of one connection, kept on the connection (``ConnectionSession/object(_:orMake:)``)
/// as one reference: reading it costs a lookup by class, and changing it never re-boxes the state
/// (which a value type stored on the connection would, once per change, on the executePayment path).
final class TatraConnection: Sendable {
    private let state = Lock(TatraConnectionState())

    /// The connection's tatra state, created on first use.
    static func of(_ connection: ConnectionSession) -> TatraConnection {
        connection.object(TatraConnection.self) { TatraConnection() }
    }

    /// Reads and changes the state atomically.
    func withState<R: Sendable, E: Error>(_ body: (inout TatraConnectionState) throws(E) -> R) throws(E) -> R {
        try state.withLock { (value) throws(E) -> R in try body(&value) }
    }
}
