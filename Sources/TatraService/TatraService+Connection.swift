import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// Reads and changes the connection's tatra state atomically.
    func withConnectionState<R>(_ context: RequestContext, _ body: (inout TatraConnectionState) throws -> R) rethrows -> R {
        try TatraConnection.of(context.connection).withState(body)
    }

    /// Fails the call when `sandbox.tatra.failNextCall` asked for it (and forgets the request).
    func consumeInjectedFailure(_ call: TatraBankCall, _ context: RequestContext) throws(TatraError) {
        try consumeInjectedFailure(call, TatraConnection.of(context.connection))
    }

    /// Fails the call when `sandbox.tatra.failNextCall` asked for it (and forgets the request).
    func consumeInjectedFailure(_ call: TatraBankCall, _ connection: TatraConnection) throws(TatraError) {
        let failure = connection.withState { state in
            state.failNext.isEmpty ? nil : state.failNext.removeValue(forKey: call)
        }
        guard let failure else { return }
        let texts = sandbox.texts
        switch failure {
        case .general:
            throw TatraError.general(title: texts.general, message: "The bank could not process the request (sandbox failNextCall).")
        case .serviceUnavailable:
            throw TatraError.serviceUnavailable(title: texts.serviceUnavailable,
                                                message: "The bank's service is unavailable (sandbox failNextCall).")
        case .network:
            throw TatraError.network(title: texts.network, message: "The bank could not be reached (sandbox failNextCall).")
        }
    }
}
