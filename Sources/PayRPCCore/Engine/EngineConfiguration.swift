/// The engine's limits and identity; every limit has a safe default.
public struct EngineConfiguration: Sendable {
    /// Most members a batch may have (`--max-batch`).
    public var maxBatch = 1000
    /// Most requests of one connection running at once (`--max-in-flight`); past it the server
    /// stops reading that connection until some finish.
    public var maxInFlight = 256
    /// Deadline of a call that sets no `_meta.timeoutMs` (`--default-timeout`); nil: none.
    public var defaultTimeout: Duration?
    /// Per-method default deadlines (`--method-timeout NAME=MS`).
    public var methodTimeouts: [String: Duration] = [:]
    /// The tokens TCP and Unix connections must present in `rpc.hello`, each with the profiles
    /// it may use (`--auth-token-file`); nil: no token is asked for.
    public var access: (any AccessPolicy)?
    /// Whether the built-in sandboxes (and `sandbox.*` methods) are on.
    public var sandbox = true
    /// Whether results and notifications are validated against their schemas (`--validate-results`).
    public var validateResults = false
    /// The server's name in `rpc.hello`.
    public var serverName = "payrpc"
    /// The server's version.
    public var version = PayRPCVersion.current
    /// The protocol version in `rpc.hello`.
    public var protocolVersion = "2026-11"

    public init() {}
}

/// payrpc's version.
public enum PayRPCVersion {
    /// The version of this build.
    public static let current = "0.1.0"
}
