import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

extension TatraService {
    /// The connection's tatra state, created on first use.
    func connectionState(_ context: RequestContext) -> ConnectionValue<TatraConnectionState> {
        .of(context.connection) { TatraConnectionState() }
    }

    /// Reads and changes the connection's tatra state atomically.
    func withConnectionState<R: Sendable, E: Error>(
        _ context: RequestContext, _ body: (inout TatraConnectionState) throws(E) -> R
    ) throws(E) -> R {
        try connectionState(context).withValue(body)
    }
}
