import PayRPCJSON
import PayRPCSchema
import Logging

/// The methods every payrpc server has: `rpc.health`, `rpc.hello`, `rpc.discover` and
/// `$/cancelRequest`.
public struct BuiltinService: BuiltinHandlers {
    let state: ServerState
    let configuration: EngineConfiguration

    /// - Parameters:
    ///   - state: the server state the built-ins report.
    ///   - configuration: the engine's identity and token.
    public init(state: ServerState, configuration: EngineConfiguration) {
        self.state = state
        self.configuration = configuration
    }

    /// `rpc.health`.
    public func health(_ params: NoParams, _ context: RequestContext) throws -> HealthStatus {
        HealthStatus(status: state.isDraining ? .notServing : .serving)
    }

    /// `rpc.hello`. Runs on the loop thread, like every inline handler: the session's flags are
    /// safe to touch. On a store other gateways share it finishes in a task (``FinishInTask``):
    /// the seed is saved under the profile's lock and the answer's seed is the store's.
    public func hello(_ params: HelloParams, _ context: RequestContext) throws -> HelloResult {
        if let access = configuration.access, context.connection.transport != .stdio {
            guard let token = params.token, let scope = access.scope(of: token) else {
                context.logger.warning("rpc.hello with a wrong or missing token")
                throw RPCError(.unauthenticated, "Unauthenticated", data: ["detail": "wrong or missing token"])
            }
            // Checked before anything of the profile is read or written (its seed below).
            let profile = params.profile ?? context.connection.profile
            guard scope.allows(profile) else {
                context.logger.warning("rpc.hello for a profile its token may not use", metadata: ["profile": .string(profile)])
                throw RPCError(
                    .unauthenticated, "Unauthenticated",
                    data: ["detail": .string("this token may not use the profile \(profile)")])
            }
        }
        context.connection.authenticate?()
        if let profile = params.profile { context.connection.profile = profile }
        if let client = params.client { context.connection.client = client }
        context.connection.admit()
        let profile = context.connection.profile
        if let seed = params.seed {
            guard context.isSandbox else {
                throw RPCError(.sandboxOnly, "Sandbox only", data: ["detail": "a seed exists only in sandbox mode"])
            }
            context.sandbox.seed(profile: profile, UInt64(seed))
        }
        if let client = params.client {
            context.logger.info("hello", metadata: ["client": .string(client), "profile": .string(context.connection.profile)])
        }
        var result = HelloResult(
            server: configuration.serverName, version: configuration.version,
            protocolVersion: configuration.protocolVersion, methods: state.methodCount,
            profile: profile, seed: nil)
        let sandbox = context.sandbox
        guard sandbox.isShared else {
            result.seed = sandbox.seed(profile: profile).map { Int64(truncatingIfNeeded: $0) }
            return result
        }
        // Another gateway may have set the profile's seed, or may be saving its draws: the seed is
        // saved under the profile's lock and read back as the store has it.
        let changed = params.seed != nil, unsettled = result
        throw FinishInTask(producing: { () async throws -> HelloResult in
            var settled = unsettled
            settled.seed = try await sandbox.settleSeed(profile: profile, changed: changed).map {
                Int64(truncatingIfNeeded: $0)
            }
            return settled
        })
    }

    /// `rpc.discover`.
    public func discover(_ params: NoParams, _ context: RequestContext) throws -> OpenRPCDocument {
        OpenRPCDocument(bytes: state.discoveryDocument)
    }

    /// `$/cancelRequest`.
    public func cancelRequest(_ params: CancelParams, _ context: RequestContext) throws -> NoResult {
        var writer = JSONWriter(capacity: 32)
        params.id.encode(to: &writer)
        _ = context.connection.cancelHandler?(writer.bytes)
        return NoResult()
    }
}
