import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// Reads and changes the connection's tatra state atomically.
    func withConnectionState<R: Sendable, E: Error>(
        _ context: RequestContext, _ body: (inout TatraConnectionState) throws(E) -> R
    ) throws(E) -> R {
        try TatraConnection.of(context.connection).withState(body)
    }
}
