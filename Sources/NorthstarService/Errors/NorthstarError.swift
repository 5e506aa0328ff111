import PayRPCServiceKit

/// A northstar error: its kind and Orders v2 body. Reaches the client through the kit's one
/// boundary (``ServiceError``): the kind's code and message, the body as `data`.
public typealias NorthstarError = ServiceError<NorthstarErrorKind>

extension ServiceError where Kind == NorthstarErrorKind {
    /// An error of `kind` with `details` (one per field and issue) and `links`.
    public init(_ kind: NorthstarErrorKind, debugId: String, details: [ErrorDetail], links: [LinkDescription]? = nil) {
        self.init(
            kind,
            data: NorthstarErrorData(
                type: kind.rawValue, name: kind.name, httpStatus: kind.httpStatus,
                message: details.first?.description ?? kind.message, debugId: debugId,
                details: details, links: links))
    }
}
