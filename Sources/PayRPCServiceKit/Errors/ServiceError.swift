import PayRPCCore
import PayRPCJSON

/// A domain error of a service: one of its ``ServiceErrorKind``s and the `data` it carries.
///
/// The one boundary where a service's error becomes the wire error (``rpcError``): the kind's code
/// and message, and `data` as its codec writes it (never parsed again). A service declares its
/// kinds and data and nothing else; its error type is `ServiceError<ItsKind>`, with its factories
/// in an extension.
public struct ServiceError<Kind: ServiceErrorKind>: Error, RPCErrorConvertible, Sendable, Equatable {
    /// Which error it is.
    public let kind: Kind
    /// What it carries.
    public let data: Kind.Data
    /// Whether it is the call's final answer for its idempotency key: its kind's
    /// ``ServiceErrorKind/isFinal`` unless this error says otherwise (``notFinal()``).
    public private(set) var isFinal: Bool

    /// The error `kind` carrying `data`.
    public init(_ kind: Kind, data: Kind.Data) {
        self.kind = kind
        self.data = data
        self.isFinal = kind.isFinal
    }

    /// The same error, not final for an idempotency key: what an error says when payrpc cannot
    /// know whether the operation took place (an outside API answered a server error), so that a
    /// repeat with the same key asks again instead of getting this answer back.
    public func notFinal() -> ServiceError {
        var error = self
        error.isFinal = false
        return error
    }

    /// The wire error: the kind's code and message, `data` written by its codec, and whether it
    /// is final for an idempotency key (never on the wire).
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 256)
        data.encode(to: &writer)
        var error = RPCError(kind.code, kind.message, encodedData: writer.bytes)
        error.isFinal = isFinal
        return error
    }
}
