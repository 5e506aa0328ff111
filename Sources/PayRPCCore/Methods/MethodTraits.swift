/// How a method behaves, declared in one line of its ``RPCMethod`` declaration
/// (`public static let traits: MethodTraits = [.mutates, .destructive]`), listed in this order.
///
/// The engine, the router, the MCP face and the published documents read these through
/// ``MethodDescriptor``; `payrpc-codegen` reads ``runsInline`` from the declaration's array
/// literal, so spell the traits as one.
public struct MethodTraits: OptionSet, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The handler answers at once on the loop thread: pure, fast work with no I/O, no store and
    /// no lock held for long (``RouterBuilder/registerInline(_:handler:)``). A service's generated
    /// handler protocol makes its requirement synchronous and registers it inline; otherwise the
    /// requirement is `async` and runs as a task off the loop.
    public static let runsInline = MethodTraits(rawValue: 1 << 0)
    /// The method may be called before `rpc.hello` on a connection that needs a token.
    public static let allowedBeforeAuthentication = MethodTraits(rawValue: 1 << 1)
    /// The method changes state; mutating methods honour `_meta.idempotencyKey`.
    public static let mutates = MethodTraits(rawValue: 1 << 2)
    /// The method throws state away (a reset, a deletion) rather than adding to it: an MCP host
    /// asks before it lets a model call such a tool (`destructiveHint`). Only with ``mutates``.
    public static let destructive = MethodTraits(rawValue: 1 << 3)
    /// The method exists only when the server runs in sandbox mode.
    public static let sandboxOnly = MethodTraits(rawValue: 1 << 4)
    /// The method changes the caller's profile's sandbox controls (its clock, its armed failures,
    /// a reset): on a store gateways share, its calls hold the profile's sandbox lock
    /// (``SandboxAccess/enter(profile:method:changesControls:drawsUnderLock:)``).
    public static let changesSandboxControls = MethodTraits(rawValue: 1 << 5)
    /// The method answers another call that waits for it (the app's answer to a callback a running
    /// call asked, as Dotpay's Masterpass delegates): on a store gateways share, its calls of a
    /// seeded profile do not wait for the profile's sandbox lock, which the waiting call may hold.
    /// Such a method draws nothing from the profile's seeded streams.
    public static let answersWaitingCall = MethodTraits(rawValue: 1 << 6)
    /// Calls of this method on one connection run one after another, in arrival order, with every
    /// other ordered method of the connection. For stateful flows (a payment executed, then
    /// authorized, then the flow stopped) whose client pipelines its calls; other calls still run
    /// concurrently.
    public static let ordered = MethodTraits(rawValue: 1 << 7)
    /// The method's calls are not recorded in the call journal: the journal's own methods
    /// (`sandbox.calls.*`), so that reading the journal, or waiting on it, never fills it.
    public static let unjournalled = MethodTraits(rawValue: 1 << 8)
}
