import PayRPCJSON
import PayRPCSchema

/// Whether the server takes work.
/// - SchemaName: ServingStatus
public enum ServingStatus: String, JSONModel {
    case serving = "SERVING"
    case notServing = "NOT_SERVING"
}

/// The health of the server.
/// - SchemaName: HealthStatus
public struct HealthStatus: JSONModel, Equatable {
    /// SERVING, or NOT_SERVING while the server drains before exiting.
    public var status: ServingStatus
}

/// The optional handshake a client sends first.
/// - SchemaName: HelloParams
public struct HelloParams: JSONModel, Equatable {
    /// The client's name and version, for the server's log.
    /// - MaxLength: 200
    public var client: String?
    /// The protocol version the client speaks.
    /// - MaxLength: 40
    public var protocolVersion: String?
    /// The server's token (`--auth-token-file`); required on TCP and Unix connections when the server has one.
    /// - MaxLength: 1024
    /// - Sensitive
    public var token: String?
    /// The state profile this connection uses (one app user on one device); `default` when absent.
    public var profile: ProfileName?
    /// Seeds the profile's generated values (tokens, codes, ids): the same seed and the same calls
    /// in the same order give the same values, so a test can snapshot whole transcripts. Every
    /// generator of the profile starts again. Sandbox mode only; without it, `serve --seed` or
    /// random.
    /// - Minimum: 0
    /// - Maximum: 9007199254740991
    public var seed: Int64?
}

/// Who the server is.
/// - SchemaName: HelloResult
public struct HelloResult: JSONModel, Equatable {
    /// The server's name.
    public var server: String
    /// The server's version.
    public var version: String
    /// The protocol version the server speaks.
    public var protocolVersion: String
    /// How many methods the server serves (canonical names).
    public var methods: Int
    /// The profile this connection now uses.
    public var profile: String
    /// The seed of the profile's generated values, when one is in force.
    public var seed: Int64?
}

/// Which request to cancel.
/// - SchemaName: CancelParams
public struct CancelParams: JSONModel, Equatable {
    /// The id of the request, exactly as it was sent.
    public var id: JSONValue
}
