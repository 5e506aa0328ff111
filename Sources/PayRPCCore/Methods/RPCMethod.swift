import PayRPCJSON
import PayRPCSchema

/// A JSON-RPC method, declared once: its name, how it behaves, aliases, params and result types,
/// the errors it can return and the notifications it may cause, in that order.
///
/// Everything else about the method is derived from this declaration: the handler's signature
/// (``RouterBuilder/register(_:handler:)``), its schemas and OpenRPC entry, and the validation of
/// its params. Its summary and description come from the declaration's `///` doc comment through
/// the generated ``RPCMethodDocumented`` conformance.
///
/// ```swift
/// /// Executes a payment to a contact; returns the text for the authentication screen.
/// public enum ExecutePayment: RPCMethod {
///     public static let name = "tatra.executePayment"
///     public static let traits: MethodTraits = [.runsInline, .mutates, .ordered]
///     public struct Params: JSONModel { ... }   // schema + codec generated from this
///     public typealias Result = UTF8Text
///     public static let errors = [TatraErrorType.amountLimit.descriptor, ...]
/// }
/// ```
public protocol RPCMethod: RPCMethodDocumented, Sendable {
    /// The params: a model whose schema and codec are generated.
    associatedtype Params: JSONModel
    /// The result.
    associatedtype Result: JSONCodable & JSONSchemaProvider & Sendable

    /// The canonical name, `<service>.<method>`.
    static var name: String { get }
    /// Other spellings that reach the same handler.
    static var aliases: [String] { get }
    /// The domain errors the method can return (gateway errors are implied).
    static var errors: [RPCErrorDescriptor] { get }
    /// How the method behaves (``MethodTraits``); none by default.
    static var traits: MethodTraits { get }
    /// The notifications the server may send to the caller's connection because of this call.
    static var notifications: [any RPCNotification.Type] { get }
}

extension RPCMethod {
    public static var aliases: [String] { [] }
    public static var errors: [RPCErrorDescriptor] { [] }
    public static var traits: MethodTraits { [] }
    public static var notifications: [any RPCNotification.Type] { [] }
}

/// Documentation taken from a declaration's `///` doc comment by `payrpc-codegen`: the first
/// paragraph is the summary, the rest the description.
public protocol RPCMethodDocumented {
    /// One line: what the method (or notification) does.
    static var summary: String { get }
    /// The rest of the doc comment; may be empty.
    static var documentation: String { get }
}

/// A notification the server sends to a client (a callback or delegate of the SDK).
public protocol RPCNotification: RPCMethodDocumented, Sendable {
    /// The notification's params.
    associatedtype Payload: JSONModel
    /// The method name on the wire, `<service>.<callback>`.
    static var name: String { get }
    /// Other spellings of the callback (a document's misspelling beside the grammatical one):
    /// listed in `rpc.discover` as `x-aliases` so that clients can map them to the same handler;
    /// the server sends ``name`` only.
    static var aliases: [String] { get }
}

extension RPCNotification {
    public static var aliases: [String] { [] }
}

/// One error a method can return, as listed in its OpenRPC `errors`.
public struct RPCErrorDescriptor: Sendable {
    /// The stable code.
    public var code: RPCError.Code
    /// The message the error carries.
    public var message: String
    /// The schema of its `data` member, when it has one.
    public var data: (any JSONSchemaProvider.Type)?
    /// The `data` the error carries when `sandbox.failNext` injects it and the caller gives none
    /// (members the caller gives replace these). Its `type` member, when it has one, is also a
    /// name `sandbox.failNext` accepts for the error.
    public var sampleData: JSONValue?

    public init(
        code: RPCError.Code, message: String, data: (any JSONSchemaProvider.Type)? = nil,
        sampleData: JSONValue? = nil
    ) {
        self.code = code
        self.message = message
        self.data = data
        self.sampleData = sampleData
    }
}
