import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The errors of one service, declared once: for each kind, its explicit code (inside the
/// service's ``ServiceCodeRange``), its message, its canonical status, whether it is fatal, and
/// the `data` it carries. Everything else comes from here: the wire error (``ServiceError``), the
/// OpenRPC declaration with the sample `sandbox.failNext` sends (``descriptor``), the check that
/// codes are unique and in range (``codeProblems``).
///
/// A service's kinds declare code, message and status together, one line a kind
/// (``DeclaredErrorKind``):
///
/// ```swift
/// public enum DotpayErrorKind: String, DeclaredErrorKind {
///     case paymentFailed, channelNotFound
///     public static let range = DotpayService.codeRange
///     public var declaration: ServiceErrorDeclaration {
///         switch self {
///         case .paymentFailed: ServiceErrorDeclaration(-33400, "Payment failed", .unavailable)
///         case .channelNotFound: ServiceErrorDeclaration(-33401, "Channel not found", .notFound)
///         }
///     }
///     ...
/// }
/// public typealias DotpayError = ServiceError<DotpayErrorKind>
/// ```
public protocol ServiceErrorKind: CaseIterable, Sendable, Equatable {
    /// The `data` of the service's errors (a generated model, or a value that writes one of several).
    associatedtype Data: JSONEncodable & Sendable & Equatable

    /// The service's block of codes.
    static var range: ServiceCodeRange { get }
    /// The stable JSON-RPC code, written out (never derived from a position).
    var code: RPCError.Code { get }
    /// The error's message: short, unique within the service (clients name exceptions after it).
    var message: String { get }
    /// The gRPC canonical status the error carries.
    var status: CanonicalStatus { get }
    /// Whether the flow cannot go on after it (the user can only start again). Default: false.
    var fatal: Bool { get }
    /// Whether an error of this kind is the call's final answer for its idempotency key (kept and
    /// replayed to a repeat), as ``PayRPCCore/RPCError/isFinal`` says. Default: true. False for a
    /// kind that means the operation did not start for a reason the caller fixes outside the call,
    /// or that payrpc cannot know whether it took place (an outside API that did not answer); one
    /// error may say otherwise than its kind (``ServiceError/notFinal()``).
    var isFinal: Bool { get }
    /// The schema of this kind's `data`. Default: `Data`'s own.
    var dataSchema: any JSONSchemaProvider.Type { get }
    /// The `data` `sandbox.failNext` sends when the tester gives none: a valid instance of the schema.
    var sampleData: Data { get }
}

extension ServiceErrorKind {
    public var fatal: Bool { false }
    public var isFinal: Bool { true }

    /// The kind's declaration in a method's OpenRPC `errors`, with ``sampleData`` as the sample.
    public var descriptor: RPCErrorDescriptor {
        RPCErrorDescriptor(code: code, message: message, data: dataSchema, sampleData: JSONValue(encoding: sampleData))
    }

    /// What is wrong with the kinds' codes and messages: a code outside ``range``, a code or a
    /// message used twice. Empty when all is well (each service's tests check it).
    public static var codeProblems: [String] {
        var problems: [String] = []
        var codes: [Int: Self] = [:]
        var messages: [String: Self] = [:]
        for kind in allCases {
            let code = kind.code.rawValue
            if !range.codes.contains(code) { problems.append("\(kind): \(code) is outside \(range)") }
            if let other = codes.updateValue(kind, forKey: code) { problems.append("\(kind) and \(other) share \(code)") }
            if let other = messages.updateValue(kind, forKey: kind.message) {
                problems.append("\(kind) and \(other) share the message \(kind.message)")
            }
        }
        return problems
    }
}

extension ServiceErrorKind where Data: JSONSchemaProvider {
    public var dataSchema: any JSONSchemaProvider.Type { Data.self }
}
