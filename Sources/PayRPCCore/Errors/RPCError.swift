import PayRPCJSON
import PayRPCSchema

/// The error a JSON-RPC response carries: the one wire error type of payrpc.
///
/// Codes are an open set of static constants rather than an enum, so services add their own
/// without touching the core. Domain errors become an `RPCError` at one boundary, through
/// ``RPCErrorConvertible``; anything else a handler throws becomes ``Code/internalError`` with
/// a generic message, and its cause is logged, never sent.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JSON-RPC error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public init(_ rawValue: Int) { self.rawValue = rawValue }
        /// A code written as a number (`-33300`), as a service's error kinds declare theirs.
        public init(integerLiteral value: Int) { self.rawValue = value }
        public var description: String { String(rawValue) }

        /// Invalid JSON was received (also: invalid UTF-8).
        public static let parseError = Code(-32700)
        /// The JSON sent is not a valid Request object (also: a line over the size limit, a batch over its limit).
        public static let invalidRequest = Code(-32600)
        /// The method does not exist.
        public static let methodNotFound = Code(-32601)
        /// Invalid method parameters; `data.violations` lists every one.
        public static let invalidParams = Code(-32602)
        /// Internal error; the cause is in the server's log.
        public static let internalError = Code(-32603)

        /// The request was cancelled by `$/cancelRequest` (LSP's code).
        public static let cancelled = Code(-32800)
        /// The connection must `rpc.hello` with the server's token first.
        public static let unauthenticated = Code(-32001)
        /// Reserved for a limit answered with an error: today a connection over `--max-connections`
        /// is closed at once, and one over `--max-in-flight` is not read until some requests finish.
        public static let overloaded = Code(-32002)
        /// The request's deadline (`_meta.timeoutMs` or the method's default) passed.
        public static let deadlineExceeded = Code(-32003)
        /// Reserved: a draining server stops reading, so it answers everything it read and nothing after.
        public static let shuttingDown = Code(-32004)
        /// The idempotency key was used before with other params, its first call is still running,
        /// or its stored answer cannot be read (sealed by an earlier version of payrpc).
        public static let idempotencyConflict = Code(-32005)
        /// The method exists only in sandbox mode.
        public static let sandboxOnly = Code(-32006)
        /// The server's own result or notification broke its schema (`--validate-results`).
        public static let invalidResult = Code(-32007)
        /// The store is full (its `--store-max-bytes`, or the disk): the write that did not fit
        /// was not made; reads still work, and writes do again once space is freed or the limit raised.
        public static let storeFull = Code(-32008)
        /// The store's database server cannot be reached (a shared PostgreSQL store while it
        /// restarts): the call was not done, or, when the connection broke during its commit, its
        /// outcome is unknown (a repeat runs the call again, docs/deploy.md). Retryable: call again
        /// once the server is back.
        public static let storeUnavailable = Code(-32009)
        /// `sandbox.calls.verify`: the journal does not hold the calls the test expects; `data`
        /// says how many matched and shows the nearest misses with the pointers that differed.
        public static let callsVerificationFailed = Code(-32010)
        /// `sandbox.calls.wait`: the entries waited for did not come within `timeoutMs`; `data`
        /// as for -32010.
        public static let callsWaitTimedOut = Code(-32011)
    }

    /// The error code.
    public var code: Code
    /// A short description.
    public var message: String
    /// Structured detail, written as the `data` member.
    public var data: JSONValue? {
        get {
            switch storedData {
            case .none: return nil
            case .value(let value): return value
            case .encoded(let bytes): return JSONValue(parsingIfValid: String(decoding: bytes, as: UTF8.self))
            }
        }
        set { storedData = newValue.map(StoredData.value) ?? .none }
    }

    /// How `data` is held: a value, or the bytes a generated codec wrote (written as they are,
    /// parsed only if someone reads ``data``).
    private enum StoredData: Sendable {
        case none
        case value(JSONValue)
        case encoded([UInt8])
    }

    private var storedData: StoredData

    /// Whether this error is the call's final answer for its `_meta.idempotencyKey` (true unless
    /// said otherwise). An error that is not final is sent but not kept as the key's answer: a
    /// repeat with the same key runs the call again. Not final is what an error says when the
    /// operation did not start for a reason the caller can fix outside the call (a full store, a
    /// client not configured), or when payrpc cannot know whether it took place (an outside API
    /// that did not answer, or answered a server error): Stripe's rule, a result is kept once the
    /// operation really ran (docs/protocol.md, "Idempotency keys: what a repeat gets"). Never
    /// written on the wire, and not compared by `==`.
    public var isFinal = true

    public init(_ code: Code, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.storedData = data.map(StoredData.value) ?? .none
    }

    /// An error whose `data` is the JSON `encodedData` a model's codec wrote: a domain error's
    /// data goes to the wire without being parsed back into a value first.
    /// - Precondition: `encodedData` is one JSON value (a generated codec always writes one).
    public init(_ code: Code, _ message: String, encodedData: [UInt8]) {
        self.code = code
        self.message = message
        self.storedData = .encoded(encodedData)
    }

    /// Same code, message and data (compared as values, however each is held).
    public static func == (left: RPCError, right: RPCError) -> Bool {
        left.code == right.code && left.message == right.message && left.data == right.data
    }

    public var description: String { "\(code.rawValue) \(message)" }

    /// Writes the JSON-RPC error object.
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("code")
        writer.int(code.rawValue)
        writer.key("message")
        writer.string(message)
        switch storedData {
        case .none:
            break
        case .value(let value):
            writer.key("data")
            value.encode(to: &writer)
        case .encoded(let bytes):
            writer.key("data")
            writer.raw(bytes)
        }
        writer.endObject()
    }

    /// The response member that carries this error, `"error":{...}`: the text that follows the
    /// id, which is also what ``IdempotencyStore/complete(profile:key:outcome:)`` records.
    public var responseMember: [UInt8] {
        var writer = JSONWriter(capacity: 96)
        writer.raw("\"error\":")
        encode(to: &writer)
        return writer.bytes
    }
}

extension RPCError {
    /// A parse error (-32700).
    public static func parse(_ detail: String) -> RPCError {
        RPCError(.parseError, "Parse error", data: ["detail": .string(detail)])
    }

    /// An invalid request (-32600).
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(.invalidRequest, "Invalid Request", data: ["detail": .string(detail)])
    }

    /// Method not found (-32601).
    public static func methodNotFound(_ name: String) -> RPCError {
        RPCError(.methodNotFound, "Method not found", data: ["method": .string(name)])
    }

    /// Invalid params (-32602) listing every violation.
    public static func invalidParams(_ violations: [SchemaViolation]) -> RPCError {
        RPCError(.invalidParams, "Invalid params", data: ["violations": violationList(violations)])
    }

    /// A result or notification of the server's own that breaks its schema (-32007).
    public static func invalidResult(_ violations: [SchemaViolation]) -> RPCError {
        RPCError(.invalidResult, "Result breaks its schema", data: ["violations": violationList(violations)])
    }

    /// Violations as the `data.violations` array: `{pointer, keyword, message}` each.
    static func violationList(_ violations: [SchemaViolation]) -> JSONValue {
        .array(
            violations.map {
                ["pointer": .string($0.pointer), "keyword": .string($0.keyword), "message": .string($0.message)]
            })
    }

    /// Internal error (-32603), with no detail: the cause goes to the log.
    public static let internalError = RPCError(.internalError, "Internal error")
}

/// A domain error that knows its wire form: how services' typed errors reach the client.
public protocol RPCErrorConvertible: Error {
    /// The JSON-RPC error to send.
    var rpcError: RPCError { get }
}

extension RPCError: RPCErrorConvertible {
    public var rpcError: RPCError { self }
}
