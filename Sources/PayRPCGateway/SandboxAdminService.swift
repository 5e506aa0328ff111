import PayRPCCalls
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCSchema
import PayRPCStore
import Logging

/// Sandbox helpers that belong to no service: `sandbox.reset` and `sandbox.delay`.
struct SandboxAdminService: SandboxAdminHandlers {
    let store: any StoreAdministration
    let sandbox: SandboxControls
    /// The call journal, emptied with the rest of the profile (nil: none).
    let calls: CallJournal?

    /// `sandbox.reset`: the profile's documents, sandbox controls and call journal.
    func sandboxReset(_ params: NoParams, _ context: RequestContext) async throws -> NoResult {
        try await store.reset(profile: context.profile)
        sandbox.reset(profile: context.profile)
        _ = try await calls?.clear(profile: context.profile)
        context.logger.info("sandbox state reset", metadata: ["profile": .string(context.profile)])
        return NoResult()
    }

    /// `sandbox.delay`.
    func sandboxDelay(_ params: DelayParams, _ context: RequestContext) async throws -> Int {
        try await Task.sleep(for: .milliseconds(params.ms))
        return params.ms
    }
}

/// A sandbox helper that belongs to no service.
/// - Handlers: SandboxAdminHandlers
public protocol SandboxAdminMethod: RPCMethod {}

/// Forgets every piece of state of the caller's profile (sandbox mode only).
///
/// Deletes the profile's documents in every service (accounts, PIN attempts, remembered flags,
/// payment requests, cards, history) and its idempotency keys, returns its sandbox clock to real
/// time and forgets its armed failures and seeded streams (a seed set with `rpc.hello` is
/// forgotten too), so a test starts from the sandbox's initial data. Other profiles are untouched.
public enum SandboxReset: SandboxAdminMethod {
    public static let name = "sandbox.reset"
    public static let traits: MethodTraits = [.mutates, .destructive, .sandboxOnly, .changesSandboxControls]
    public typealias Params = NoParams
    public typealias Result = NoResult
}

/// Answers after the given number of milliseconds (sandbox mode only).
///
/// For testing a client's timeouts (`_meta.timeoutMs`), cancellation (`$/cancelRequest`) and
/// behaviour at shutdown: the wait runs off the event loop, and cancelling it ends it at once.
public enum SandboxDelay: SandboxAdminMethod {
    public static let name = "sandbox.delay"
    public static let traits: MethodTraits = [.sandboxOnly]
    public typealias Params = DelayParams
    public typealias Result = Int
}

/// How long `sandbox.delay` waits.
/// - SchemaName: DelayParams
public struct DelayParams: JSONModel, Equatable {
    /// Milliseconds to wait before answering them back.
    /// - Minimum: 0
    /// - Maximum: 600000
    public var ms: Int
}
