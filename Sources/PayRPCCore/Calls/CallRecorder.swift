#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Where the engine and the services hand what a gateway serves and sends, for the call journal
/// (`sandbox.calls.*`, docs/calls.md): the calls a connection answered, in chunks
/// (``CallChunk``), the notifications sent to connections, and the outgoing HTTP exchanges.
///
/// The engine only copies bytes into a chunk on the request path; reading them (parsing,
/// masking the declared secrets, matching) is the recorder's, when the journal is read. Every
/// method is called on whatever thread did the work and must return quickly.
public protocol CallRecorder: AnyObject, Sendable {
    /// Takes the calls one connection answered since its last chunk, in the order they were answered.
    func take(_ chunk: CallChunk)
    /// A notification this gateway sent to `connection`; `cause` names the call whose handling sent
    /// it (nil: background work, or a notification relayed from another gateway).
    func pushed(name: String, params: [UInt8], to connection: ConnectionSession, cause: String?)
    /// An outgoing HTTP exchange made for a profile, its secrets already masked.
    func exchanged(_ exchange: HTTPExchangeRecord)
    /// Whether an HTTP body over this many bytes is cut when recorded.
    var bodyLimit: Int { get }
    /// Where a connection marks the call it answers inline (what links its notifications to it).
    var inlineCall: InlineCall { get }
    /// Whether each log should hand its calls over at the end of every read (someone waits on the
    /// journal, or a shared journal flushes on a timer), rather than when it fills.
    var demand: CallDemand { get }
    /// A connection's log, from when it is made (on its loop) until ``detach(_:)``: the journal asks
    /// it for what it holds before it answers a query (``CallLog/handOffIfOpen()``, on its loop).
    func attach(_ log: CallLog)
    /// The log's connection closed (it handed over what it held).
    func detach(_ log: CallLog)
}

/// How many want the connections' logs handed over at the end of every read: the waits in
/// progress, and a journal that flushes to a shared store. One relaxed load per read.
public final class CallDemand: Sendable {
    private let count = Atomic<Int>(0)

    /// No demand.
    public init() {}

    /// One more wants it.
    public func add() { count.add(1, ordering: .relaxed) }
    /// One fewer wants it.
    public func remove() { count.subtract(1, ordering: .relaxed) }
    /// Whether anyone wants it.
    @inline(__always)
    public var isWanted: Bool { count.load(ordering: .relaxed) > 0 }
}

/// What the gateway is doing and for whom, as the task doing it carries it: what the journal
/// links a push or an outgoing HTTP exchange to, and under which profile it records the exchange.
///
/// The engine sets it for every call that runs as a task; background work (an outbox delivery, a
/// timer) sets it for the profile it works for. A call answered inline on the loop thread sets
/// ``InlineCall`` instead (a task-local value costs an allocation per call).
public struct CallScope: Sendable, Equatable {
    /// The profile the work is for.
    public var profile: String
    /// The journal id of the call being served (`"7.12"`), or of the call that caused the
    /// background work; nil when no call did.
    public var call: String?
    /// What background work this is (`"delivery"`, `"timer"`); nil for a call.
    public var work: String?

    /// A scope for `profile`, on behalf of the call `call` or the work `work`.
    public init(profile: String, call: String? = nil, work: String? = nil) {
        self.profile = profile
        self.call = call
        self.work = work
    }

    /// The scope of the current task, if any.
    @TaskLocal public static var current: CallScope?
}

/// The call the loop thread is answering inline right now, as a key (``CallKey``): what a
/// notification sent from an inline handler is linked to. One relaxed store before the handler
/// and one after; read only on the loop thread (``current(on:)``). The journal's (a global cost a
/// lazy initializer's check at every call).
public final class InlineCall: Sendable {
    /// The key of the call being answered inline (0: none).
    package let key = Atomic<UInt64>(0)

    /// None yet.
    public init() {}

    /// The journal id of the call the current task or the loop thread's inline handler serves.
    public func current(on loop: any EventLoop) -> String? {
        if let scope = CallScope.current { return scope.call }
        guard loop.inLoopThread else { return nil }
        let key = key.load(ordering: .relaxed)
        return key == 0 ? nil : CallKey.id(key)
    }
}

/// A call's key: its connection's id in the high 24 bits, its number on the connection in the
/// low 40; spelled `"<connection>.<number>"` as the journal's id of the call.
public enum CallKey {
    /// The key of call `number` of connection `connection`.
    @inline(__always)
    public static func make(connection: UInt64, number: UInt64) -> UInt64 {
        (connection << 40) | (number & numberMask)
    }

    /// The bits of a key that hold the call's number.
    public static let numberMask: UInt64 = (1 << 40) - 1

    /// The journal id of the call with `key`.
    public static func id(_ key: UInt64) -> String {
        "\(key >> 40).\(key & ((1 << 40) - 1))"
    }
}

/// One outgoing HTTP exchange as the journal records it: already masked (headers without
/// credentials, bodies with their declared secrets masked and cut at the journal's limit).
public struct HTTPExchangeRecord: Sendable {
    /// The scope it was made in: the profile, and the call or work that caused it.
    public var scope: CallScope
    /// `GET`, `POST`, ...
    public var method: String
    /// The URL, without credentials.
    public var url: String
    /// The request's header fields, masked.
    public var requestHeaders: [(name: String, value: String)]
    /// The request's body, masked (nil: none).
    public var requestBody: [UInt8]?
    /// The answer's status (nil: no answer).
    public var status: Int?
    /// The answer's body, masked (nil: no answer).
    public var responseBody: [UInt8]?
    /// Why no answer came (nil: one did).
    public var failure: String?
    /// Which try of the request this was (1: the first).
    public var attempt: Int
    /// When it started (wall clock) and how long it took, in seconds.
    public var started: Date
    public var duration: Double
    /// The body sizes before they were cut (equal to the recorded sizes when nothing was cut).
    public var requestBodyBytes: Int
    public var responseBodyBytes: Int

    /// An exchange's record.
    public init(
        scope: CallScope, method: String, url: String, requestHeaders: [(name: String, value: String)],
        requestBody: [UInt8]?, status: Int?, responseBody: [UInt8]?, failure: String?, attempt: Int,
        started: Date, duration: Double, requestBodyBytes: Int, responseBodyBytes: Int
    ) {
        self.scope = scope
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseBody = responseBody
        self.failure = failure
        self.attempt = attempt
        self.started = started
        self.duration = duration
        self.requestBodyBytes = requestBodyBytes
        self.responseBodyBytes = responseBodyBytes
    }
}
