import PayRPCCore
import PayRPCServiceKit

/// Every journal error, with its stable code in -33200…-33299. The wire error, its declaration
/// and `sandbox.failNext`'s sample come from the kit (``ServiceErrorKind``).
public enum JournalErrorKind: String, DeclaredErrorKind {
    /// A hand-off or callback URL breaks the document's format (a fixed value, a missing or
    /// malformed parameter); `parameter` names it.
    case invalidURL
    /// No entry has that id on the profile.
    case entryNotFound
    /// The payment's fields do not fit its type (account fields for a card payment, an amount
    /// with decimals).
    case invalidPayment

    public static let range = JournalService.codeRange

    /// Each kind's code, message and canonical status.
    public var declaration: ServiceErrorDeclaration {
        switch self {
        case .invalidURL: ServiceErrorDeclaration(-33200, "Invalid URL", .invalidArgument)
        case .entryNotFound: ServiceErrorDeclaration(-33201, "Entry not found", .notFound)
        case .invalidPayment: ServiceErrorDeclaration(-33202, "Invalid payment", .invalidArgument)
        }
    }

    public var sampleData: JournalErrorData { JournalErrorData(type: rawValue, status: status.rawValue, detail: message) }
}

/// A journal error.
public typealias JournalError = ServiceError<JournalErrorKind>

extension ServiceError where Kind == JournalErrorKind {
    /// An error of `kind` saying `detail`, naming the URL parameter concerned.
    public init(
        _ kind: JournalErrorKind, _ detail: String, parameter: String? = nil, expected: String? = nil,
        found: String? = nil
    ) {
        self.init(
            kind,
            data: JournalErrorData(
                type: kind.rawValue, status: kind.status.rawValue, detail: detail,
                parameter: parameter, expected: expected, found: found))
    }
}
