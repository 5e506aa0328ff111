import PayRPCCore

/// One error kind's code, message, canonical status, fatality and finality: its line of its service's
/// table (``DeclaredErrorKind/declaration``), everything the kind is apart from its name and the
/// `data` it carries.
public struct ServiceErrorDeclaration: Sendable, Equatable {
    /// The stable JSON-RPC code, written out.
    public let code: RPCError.Code
    /// The short message, unique within the service.
    public let message: String
    /// The gRPC canonical status.
    public let status: CanonicalStatus
    /// Whether the flow cannot go on after it (``ServiceErrorKind/fatal``).
    public let fatal: Bool
    /// Whether an error of the kind is the call's final answer for its idempotency key
    /// (``ServiceErrorKind/isFinal``).
    public let isFinal: Bool

    /// The kind with `code`, `message` and `status`, fatal when `fatal` says so, and the final
    /// answer for an idempotency key unless `isFinal` says otherwise.
    public init(
        _ code: RPCError.Code, _ message: String, _ status: CanonicalStatus, fatal: Bool = false, isFinal: Bool = true
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.fatal = fatal
        self.isFinal = isFinal
    }
}

/// Error kinds that declare each kind once: its code, message, status, fatality and finality on one line of
/// one table, so that a kind is added or read in one place (the enum's `case` names it; nothing
/// else does):
///
/// ```swift
/// public var declaration: ServiceErrorDeclaration {
///     switch self {
///     case .requestExpired: ServiceErrorDeclaration(-33102, "Request expired", .failedPrecondition, fatal: true)
///     case .popupNotFound: ServiceErrorDeclaration(-33106, "Popup not found", .notFound)
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
    public var fatal: Bool { declaration.fatal }
    public var isFinal: Bool { declaration.isFinal }
}
