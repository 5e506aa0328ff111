import PayRPCCore

/// A service the gateway serves: its methods (``RPCService/register(on:)``), a constructor that
/// takes one ``ServiceContext`` and starts nothing, and a ``run()`` that owns every background
/// task of the service (the outbox's take-over, timers, store subscriptions, the resend at
/// start-up) and ends them when its task is cancelled.
///
/// `payrpc schemas` builds services to describe their methods and never runs them; `payrpc serve`
/// runs every service beside the transport and cancels them once the transport has drained
/// (``ServiceGroup``). A sixth service is a folder with a type that conforms, and one line in the
/// gateway's catalog.
public protocol GatewayService: RPCService {
    /// The service's name: the first part of its methods' names, the key of its
    /// `--sandbox-data NAME=FILE`, the owner of its ``codeRange``.
    static var name: String { get }
    /// The JSON-RPC codes of its domain errors: the router refuses two services whose ranges overlap.
    static var codeRange: ServiceCodeRange { get }
    /// Whether `--sandbox-data NAME=FILE` may name a file for it (``ServiceSettings/sandboxData``).
    static var takesSandboxData: Bool { get }

    /// Builds the service from what the gateway gives every service; starts no work.
    /// - Throws: when its configuration section cannot be used (a sandbox data file that does not read).
    init(context: ServiceContext) throws

    /// Signalled once ``run()`` has started its background work and caught up with what was left
    /// waiting at start-up: what a test awaits instead of sleeping.
    var readiness: ServiceReadiness { get }

    /// Runs the service's background work until the task is cancelled, then ends it (subscriptions
    /// cancelled, timers stopped, deliveries ended at their next wait, each leaving its outbox item
    /// as recorded) and returns.
    func run() async throws
}

extension GatewayService {
    /// No sandbox data file.
    public static var takesSandboxData: Bool { false }

    /// Ready from the start (no background work).
    public var readiness: ServiceReadiness { .ready }

    /// No background work: waits for cancellation.
    public func run() async throws { await ServiceReadiness.untilCancelled() }
}
