import PayRPCJSON
import PayRPCSchema

/// A JSON-RPC method, declared once: its name, aliases, params and result types, the errors it
/// can return and the notifications it may cause.
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
///     public struct Params: Sendable { ... }   // schema + codec generated from this
///     public typealias Result = String
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
    /// Whether the method changes state; mutating methods honour `_meta.idempotencyKey`.
    static var mutates: Bool { get }
    /// The notifications the server may send to the caller's connection because of this call.
    static var notifications: [any RPCNotification.Type] { get }
    /// Whether the method exists only when the server runs in sandbox mode.
    static var sandboxOnly: Bool { get }
    /// Whether the method throws state away (a reset, a deletion) rather than adding to it: an MCP
    /// host asks before it lets a model call such a tool (`destructiveHint`). Only for ``mutates``.
    static var destructive: Bool { get }
    /// Whether the method may be called before `rpc.hello` on a connection that needs a token.
    static var allowedBeforeAuthentication: Bool { get }
    /// Whether the method changes the caller's profile's sandbox controls (its clock, its armed
    /// failures, a reset): on a store gateways share, its calls hold the profile's sandbox lock
    /// (``SandboxControls/enter(profile:method:changesControls:drawsUnderLock:)``).
    static var changesSandboxControls: Bool { get }
    /// Whether the method answers another call that waits for it (the app's answer to a callback
    /// a running call asked, as Dotpay's Masterpass delegates): on a store gateways share, its
    /// calls of a seeded profile do not wait for the profile's sandbox lock, which the waiting call
    /// may hold. Such a method draws nothing from the profile's seeded streams.
    static var answersWaitingCall: Bool { get }
    /// Whether calls of this method on one connection run one after another, in arrival order,
    /// with every other ordered method of the connection. For stateful flows (a payment executed,
    /// then authorized, then the flow stopped) whose client pipelines its calls; other calls
    /// still run concurrently.
    static var ordered: Bool { get }
    /// Whether the handler answers at once on the loop thread: pure, fast work with no I/O, no
    /// store and no lock held for long (``RouterBuilder/registerInline(_:handler:)``). A service's
    /// generated handler protocol makes its requirement synchronous and registers it inline;
    /// otherwise the requirement is `async` and runs as a task off the loop.
    static var runsInline: Bool { get }
}

extension RPCMethod {
    public static var aliases: [String] { [] }
    public static var errors: [RPCErrorDescriptor] { [] }
    public static var mutates: Bool { false }
    public static var notifications: [any RPCNotification.Type] { [] }
    public static var sandboxOnly: Bool { false }
    public static var destructive: Bool { false }
    public static var allowedBeforeAuthentication: Bool { false }
    public static var changesSandboxControls: Bool { false }
    public static var answersWaitingCall: Bool { false }
    public static var ordered: Bool { false }
    public static var runsInline: Bool { false }
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
