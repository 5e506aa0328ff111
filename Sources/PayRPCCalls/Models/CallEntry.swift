#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// One entry of a profile's call journal: a call the gateway answered, a notification it sent, or
/// an HTTP exchange it made for the profile. Every field the schemas declare secret is masked.
/// - SchemaName: CallEntry
public struct CallEntry: JSONModel, Equatable {
    /// Unique in the journal: `"7.12"` is connection 7's twelfth call, `"p.41"` a notification,
    /// `"h.3"` an HTTP exchange; on a store gateways share, each starts with the gateway's mark
    /// (`"g2:7.12"`).
    /// - Example: "7.12"
    public var id: String
    /// What the entry records.
    public var kind: CallEntryKind
    /// A call's method (its canonical name; the name sent when no method has it), a
    /// notification's method, or an HTTP exchange's method (`POST`).
    /// - Example: "tatra.authorizePayment"
    public var method: String?
    /// The name the request used, when it is an alias of `method`.
    /// - Example: "authorizePayment"
    public var calledAs: String?
    /// The request's `id` (absent: the call was a notification).
    public var requestId: JSONValue?
    /// A call's or a notification's params, by name (also when sent by position); an HTTP
    /// exchange's request body (JSON as JSON, a form as an object of its fields, else a string).
    /// Secrets masked.
    public var params: JSONValue?
    /// A call's result, or an HTTP exchange's answer body (as `params` reads a request body).
    /// Secrets masked.
    public var result: JSONValue?
    /// A call's error: `{code, message, data}`.
    public var error: JSONValue?
    /// An HTTP exchange's URL, status, headers and try.
    public var http: CallHTTPExchange?
    /// The connection the call came from, or the notification went to.
    public var connection: Int?
    /// How that connection is connected: `stdio`, `tcp`, `unix`, `memory`.
    public var transport: String?
    /// The client the connection named in `rpc.hello`.
    public var client: String?
    /// When the call arrived (the notification was sent, the exchange started), on the profile's
    /// sandbox clock.
    public var at: Date
    /// The same moment on the wall clock.
    public var wallAt: Date
    /// How long the call took to answer (the exchange to complete), in milliseconds.
    public var durationMs: Double?
    /// Whether an idempotency key replayed the call's stored answer (the handler did not run).
    public var replayed: Bool?
    /// The call whose handling sent the notification or made the exchange (its `id`).
    public var causedBy: String?
    /// The background work that made the exchange or sent the notification (`delivery`, `timer`).
    public var work: String?
    /// The parts over the journal's size limit, left out: `params`, `result`, `request`.
    public var cut: [String]?
    /// The gateway that recorded the entry (a store gateways share).
    public var gateway: String?
}

/// What a journal entry records.
public enum CallEntryKind: String, JSONModel {
    /// A JSON-RPC call (or a line refused before a request was read from it).
    case call
    /// A notification the gateway sent to a connection.
    case push
    /// An HTTP exchange the gateway made for the profile (a journal Web API, a URLC, Orders v2).
    case http
}

/// What an HTTP entry adds.
/// - SchemaName: CallHTTPExchange
public struct CallHTTPExchange: JSONModel, Equatable {
    /// Where the request went, without credentials.
    /// - Example: "http://127.0.0.1:8080/payments/"
    public var url: String
    /// The answer's status (absent: no answer came).
    public var status: Int?
    /// The request's header fields, credentials masked.
    public var requestHeaders: [String: String]
    /// Which try of the request this was (1: the first).
    public var attempt: Int
    /// Why no answer came.
    public var failure: String?
}
