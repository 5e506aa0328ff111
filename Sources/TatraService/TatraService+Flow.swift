import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// `tatra.onFlowStart`: starts a new flow, forgetting the connection's previous one.
    public func onFlowStart(_ params: NoParams, _ context: RequestContext) -> NoResult {
        _ = withConnectionState(context) { $0.startFlow(explicit: true) }
        return NoResult()
    }

    /// `tatra.onFlowStop`: forgets the connection's flow and its pending payment.
    public func onFlowStop(_ params: NoParams, _ context: RequestContext) -> NoResult {
        withConnectionState(context) { $0.flow = nil }
        return NoResult()
    }

    /// `tatra.fetchSetupData`.
    public func fetchSetupData(_ params: NoParams, _ context: RequestContext) async throws -> SetupData {
        var setup = sandbox.setup
        if let activated = try await profileState(context).activated { setup.isActivated = activated }
        return setup
    }

    /// `sandbox.tatra.setActivated`.
    public func sandboxSetActivated(_ params: SandboxSetActivated.Params, _ context: RequestContext) async throws -> NoResult {
        let activated = params.activated
        try await updateProfileState(context) { $0.activated = activated }
        return NoResult()
    }
}
