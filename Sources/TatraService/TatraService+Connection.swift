import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// Reads and changes the connection's tatra state atomically.
    func withConnectionState<R>(_ context: RequestContext, _ body: (inout TatraConnectionState) throws -> R) rethrows -> R {
        try TatraConnection.of(context.connection).withState(body)
    }
}
