import Logging
import PayRPCJSON

/// The JSON-RPC 2.0 engine shared by every connection: the router, the limits, and the stores
/// the engine itself uses. The transport asks it for one ``RPCSession`` per connection.
public final class RPCEngine: RPCConnectionHandlerFactory, Sendable {
    /// The methods served.
    public let router: Router
    /// Limits and identity.
    public let configuration: EngineConfiguration
    package let idempotency: (any IdempotencyStore)?
    /// The tester's controls (clocks, seeds, armed failures), shared with the services.
    public let sandbox: any SandboxAccess
    /// ``sandbox``'s counters, read by every call without a call through the protocol.
    package let sandboxActivity: SandboxActivity
    /// Whether ``sandbox`` is shared with other gateways (read by every call).
    package let sandboxIsShared: Bool
    /// Every connection that may be served, by profile: what services notify a whole profile through.
    public let connections: ConnectionDirectory
    /// The call journal the sessions record into (``ConnectionDirectory/calls``; nil: none).
    package let calls: (any CallRecorder)?
    let logger: Logger

    /// - Parameters:
    ///   - router: the frozen methods.
    ///   - configuration: limits and identity.
    ///   - idempotency: where answers of idempotent calls are kept; nil disables idempotency keys.
    ///   - environment: the sandbox controls and the directory of connections the services were built with.
    ///   - logger: the engine's logger.
    public init(
        router: Router, configuration: EngineConfiguration,
        idempotency: (any IdempotencyStore)?, environment: ServiceEnvironment, logger: Logger
    ) {
        self.router = router
        self.configuration = configuration
        self.idempotency = idempotency
        self.sandbox = environment.sandbox
        self.sandboxActivity = environment.sandbox.activity
        self.sandboxIsShared = environment.sandbox.isShared
        self.connections = environment.connections
        self.calls = environment.connections.calls
        self.logger = logger
    }

    /// Whether a call of `method` may be answered on the loop thread (inline, an armed failure
    /// taken there). Always on an embedded store (one flag read); on a store other gateways share,
    /// only the methods answered before authentication (`rpc.health`, `rpc.hello`: they set the
    /// connection up, so the calls after them must find them done): every other call runs as a
    /// task that first reads its profile's sandbox state (``Call/answer()``).
    @inline(__always)
    package func answersInline(_ method: MethodDescriptor) -> Bool {
        !sandboxIsShared || method.allowedBeforeAuthentication
    }

    /// Called by the transport on the loop thread for each new connection.
    public func makeHandler(for connection: any RPCConnection) -> any RPCConnectionHandler {
        RPCSession(engine: self, connection: connection)
    }

    /// Maps anything a handler throws to the wire error; unknown errors (and convertible ones
    /// that become an internal error) are logged, not sent.
    package func wireError(_ error: any Error, method: String, logger: Logger) -> RPCError {
        if let early = error as? EarlyAnswer { return early.error }
        if let convertible = error as? any RPCErrorConvertible {
            let wire = convertible.rpcError
            if wire.code == .internalError {
                logger.error("handler failed", metadata: ["rpc.method": .string(method), "error": .string("\(error)")])
            }
            return wire
        }
        if error is CancellationError { return RPCError(.cancelled, "Request cancelled") }
        logger.error("handler failed", metadata: ["rpc.method": .string(method), "error": .string("\(error)")])
        return .internalError
    }
}
