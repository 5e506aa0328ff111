import PayRPCJSON
import PayRPCSchema

/// Reports whether the server is serving.
///
/// Answers `{"status":"SERVING"}`, or `NOT_SERVING` while the server drains before it exits
/// (after SIGTERM, SIGINT or the end of stdin). Answered before `rpc.hello` on a server with
/// tokens, as gRPC's health check is, so a balancer's health check needs no token.
public enum Health: BuiltinMethod {
    public static let name = "rpc.health"
    public static let traits: MethodTraits = [.runsInline, .allowedBeforeAuthentication]
    public typealias Params = NoParams
    public typealias Result = HealthStatus
}

/// The optional handshake: names the client, selects the state profile, presents the token.
///
/// A TCP or Unix connection to a server started with `--auth-token-file` must call this with
/// a token before any other method but `rpc.health`, naming a profile that token may use. The
/// profile selects whose state the connection uses; connections with different profiles never
/// see each other's state.
public enum Hello: BuiltinMethod {
    public static let name = "rpc.hello"
    public static let traits: MethodTraits = [.runsInline, .allowedBeforeAuthentication]
    public typealias Params = HelloParams
    public typealias Result = HelloResult
    public static let errors = [
        RPCErrorDescriptor(code: .unauthenticated, message: "Unauthenticated")
    ]
}

/// Returns the OpenRPC document of everything this server serves.
///
/// The same document as `Schemas/openrpc.json`: every method with its params, result, errors,
/// aliases (`x-aliases`), whether it mutates state (`x-mutates`) and the notifications it may
/// send (`x-notifications`).
public enum Discover: BuiltinMethod {
    public static let name = "rpc.discover"
    public static let traits: MethodTraits = [.runsInline]
    public typealias Params = NoParams
    public typealias Result = OpenRPCDocument
}

/// Cancels a request of this connection that is still running; send it as a notification.
///
/// The cancelled request answers at once with error -32800 (Request cancelled).
public enum CancelRequest: BuiltinMethod {
    public static let name = "$/cancelRequest"
    public static let traits: MethodTraits = [.runsInline]
    public typealias Params = CancelParams
    public typealias Result = NoResult
}

/// The OpenRPC document, kept as the JSON bytes it is sent as.
public struct OpenRPCDocument: JSONCodable, JSONSchemaProvider, Sendable {
    /// The compact JSON text.
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an OpenRPC document", found: json) }
        bytes = json.rawArray
    }

    public func encode(to writer: inout JSONWriter) { writer.raw(bytes) }

    public static var schemaReference: JSONValue {
        [
            "type": "object", "required": ["openrpc", "info", "methods"],
            "description": "An OpenRPC 1.x document (https://spec.open-rpc.org)",
        ]
    }
}
