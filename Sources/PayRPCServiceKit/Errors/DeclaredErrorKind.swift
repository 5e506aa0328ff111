import PayRPCCore

/// One error kind's code, message and canonical status: a line of its service's table
/// (``DeclaredErrorKind/declaration``).
public struct ServiceErrorDeclaration: Sendable, Equatable {
    /// The stable JSON-RPC code, written out.
    public let code: RPCError.Code
    /// The short message, unique within the service.
    public let message: String
    /// The gRPC canonical status.
    public let status: CanonicalStatus

    /// The kind with `code`, `message` and `status`.
    public init(_ code: RPCError.Code, _ message: String, _ status: CanonicalStatus) {
        self.code = code
        self.message = message
        self.status = status
    }
}

/// Error kinds that declare each kind's code, message and status together, one line a kind, so
/// that a kind is added or read in one place:
///
/// ```swift
/// public var declaration: ServiceErrorDeclaration {
///     switch self {
///     case .paymentFailed: ServiceErrorDeclaration(-33400, "Payment failed", .unavailable)
///     case .channelNotFound: ServiceErrorDeclaration(-33401, "Channel not found", .notFound)
///     }
/// }
/// ```
public protocol DeclaredErrorKind: ServiceErrorKind {
    /// This kind's line of the table.
    var declaration: ServiceErrorDeclaration { get }
}

extension DeclaredErrorKind {
    public var code: RPCError.Code { declaration.code }
    public var message: String { declaration.message }
    public var status: CanonicalStatus { declaration.status }
}
