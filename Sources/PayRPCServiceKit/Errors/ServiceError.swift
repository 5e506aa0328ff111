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

    /// The error `kind` carrying `data`.
    public init(_ kind: Kind, data: Kind.Data) {
        self.kind = kind
        self.data = data
    }

    /// The wire error: the kind's code and message, `data` written by its codec.
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 256)
        data.encode(to: &writer)
        return RPCError(kind.code, kind.message, encodedData: writer.bytes)
    }
}
