import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// `tatra.onFlowStart`: starts a new flow, forgetting the connection's previous one.
    func onFlowStart(_ context: RequestContext) -> NoResult {
        _ = withConnectionState(context) { $0.startFlow(explicit: true) }
        return NoResult()
    }

    /// `tatra.onFlowStop`: forgets the connection's flow and its pending payment.
    func onFlowStop(_ context: RequestContext) -> NoResult {
        withConnectionState(context) { $0.flow = nil }
        return NoResult()
    }

    /// `tatra.fetchSetupData`.
    func fetchSetupData(_ context: RequestContext) throws(TatraError) -> SetupData {
        try consumeInjectedFailure(.fetchSetupData, context)
        return sandbox.setup
    }

    /// `sandbox.tatra.failNextCall`.
    func failNextCall(_ params: SandboxFailNextCall.Params, _ context: RequestContext) -> NoResult {
        withConnectionState(context) { $0.failNext[params.method] = params.error }
        return NoResult()
    }
}
