#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCSync
import Logging

/// A sandbox control every service shares.
/// - Handlers: SandboxControlHandlers
public protocol SandboxControlMethod: RPCMethod {}

/// The sandbox controls every service shares: `sandbox.failNext` and the test clock
/// (`sandbox.clock.get`, `advance`, `set`). The mechanisms are in the core
/// (``SandboxControls``, ``Router/injectedError(for:)``); this service is their JSON-RPC face.
/// What a call changes (a failure armed, the clock moved) is a document of the profile in the store
/// (`sandbox/failures`, `sandbox/clock`), saved by the engine before the call answers, so a
/// restart keeps it.
package struct SandboxControlService: SandboxControlHandlers {
    /// The controls the methods change (the gateway's, shared with the engine and the services).
    let controls: SandboxControls
    /// The router, known once it is built (failures are checked against its declarations).
    let router: RouterReference

    /// The methods over `controls`, checking failures against the router `router` will hold.
    package init(controls: SandboxControls, router: RouterReference) {
        self.controls = controls
        self.router = router
    }

    /// `sandbox.failNext`.
    package func sandboxFailNext(_ params: FailNextParams, _ context: RequestContext) throws -> FailNextResult {
        guard let router = router.router else { throw RPCError.internalError }
        let request = FailureRequest(
            method: params.method, errorName: params.error, code: params.code,
            message: params.message, data: params.data)
        let (method, error) = try router.injectedError(for: request)
        controls.arm(
            profile: context.profile, method: method, failure: InjectedFailure(error: error),
            count: params.count ?? 1)
        context.logger.info(
            "sandbox failure armed",
            metadata: [
                "rpc.method": .string(method), "error.code": .stringConvertible(error.code.rawValue),
            ])
        return FailNextResult(
            method: method, code: error.code.rawValue, message: error.message,
            armed: controls.armedFailures(profile: context.profile)[method] ?? 0)
    }

    /// `sandbox.clock.get`.
    package func sandboxClockGet(_ params: NoParams, _ context: RequestContext) throws -> SandboxClockState {
        state(context)
    }

    /// `sandbox.clock.advance`.
    package func sandboxClockAdvance(_ params: ClockAdvanceParams, _ context: RequestContext) async throws -> SandboxClockState {
        try controls.advance(profile: context.profile, by: params.seconds)
        return state(context)
    }

    /// `sandbox.clock.set`.
    package func sandboxClockSet(_ params: ClockSetParams, _ context: RequestContext) async throws -> SandboxClockState {
        try controls.set(profile: context.profile, to: params.time)
        return state(context)
    }

    private func state(_ context: RequestContext) -> SandboxClockState {
        SandboxClockState(
            time: context.now, realTime: controls.realTime.now(),
            offsetSeconds: controls.offset(profile: context.profile))
    }
}

/// The router of a gateway, set once it is built: methods registered before the build (such as
/// `sandbox.failNext`) read the declarations of every other method through it.
package final class RouterReference: Sendable {
    private let value = Lock<Router?>(nil)

    /// The router; nil until ``set(_:)``.
    package var router: Router? { value.withLock { $0 } }

    /// A reference to no router yet.
    package init() {}

    /// Publishes the built router.
    package func set(_ router: Router) { value.withLock { $0 = router } }
}
