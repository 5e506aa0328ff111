import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A northstar error: its kind and Orders v2 body. Reaches the client as a JSON-RPC error with
/// the kind's code and message and the body as `data` (written by its codec, not re-parsed).
public struct NorthstarError: Error, RPCErrorConvertible, Sendable, Equatable {
    /// Which error.
    public let kind: NorthstarErrorKind
    /// The body.
    public let data: NorthstarErrorData

    /// An error of `kind` with `details` (one per field and issue) and `links`.
    public init(_ kind: NorthstarErrorKind, debugId: String, details: [ErrorDetail], links: [LinkDescription]? = nil) {
        self.kind = kind
        self.data = NorthstarErrorData(type: kind.rawValue, name: kind.name, httpStatus: kind.httpStatus,
                                       message: details.first?.description ?? kind.message, debugId: debugId,
                                       details: details, links: links)
    }

    /// An error of `kind` with a body as an Orders v2 API answered it.
    init(_ kind: NorthstarErrorKind, data: NorthstarErrorData) {
        self.kind = kind
        self.data = data
    }

    /// The wire error.
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 256)
        data.encode(to: &writer)
        return RPCError(kind.code, kind.message, encodedData: writer.bytes)
    }
}
