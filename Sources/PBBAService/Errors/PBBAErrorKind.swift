import PayRPCCore
import PayRPCServiceKit

/// Every PBBA domain error: its stable code in -33100...-33199, its short unique title, its gRPC
/// status and whether it ends the payment request. The one place each is declared; methods list
/// their ``descriptor``s, and the kit's ``ServiceError`` builds the wire error from them.
public enum PBBAErrorKind: String, DeclaredErrorKind {
    /// No payment request has that secureToken.
    case paymentRequestNotFound
    /// No payment request in its retrieval period has that code.
    case brnNotFound
    /// The request's retrieval period has passed.
    case requestExpired
    /// The Consumer already approved or declined the request.
    case paymentAlreadyFinished
    /// The device has no PBBA-enabled bank app, so `zapp://` cannot be opened.
    case noBankAppInstalled
    /// The `brn` given with a secureToken is not that request's code.
    case brnMismatch
    /// No pop-up with that id is on screen.
    case popupNotFound
    /// The pop-up has no such button (e.g. "Try again" on a payment pop-up).
    case wrongPopupKind
    /// The backend could not generate a request (sandbox: amount 99.91).
    case requestGenerationFailed
    /// The backend could not be reached (sandbox: amount 99.92).
    case networkError
    /// A request with that secureToken is already known (`registerExternalRequest`).
    case secureTokenInUse
    /// A request in its retrieval period already has that code (`registerExternalRequest`).
    case brnInUse

    public static let range = PBBAService.codeRange

    /// Each kind's code, message, canonical status, and whether the payment request can no longer
    /// succeed after it (fatal: the app should start a new one).
    public var declaration: ServiceErrorDeclaration {
        switch self {
        case .paymentRequestNotFound: ServiceErrorDeclaration(-33100, "Payment request not found", .notFound, fatal: true)
        case .brnNotFound: ServiceErrorDeclaration(-33101, "Code not found", .notFound, fatal: true)
        case .requestExpired: ServiceErrorDeclaration(-33102, "Request expired", .failedPrecondition, fatal: true)
        case .paymentAlreadyFinished:
            ServiceErrorDeclaration(-33103, "Payment already finished", .failedPrecondition, fatal: true)
        case .noBankAppInstalled: ServiceErrorDeclaration(-33104, "No bank app installed", .failedPrecondition)
        case .brnMismatch: ServiceErrorDeclaration(-33105, "Code mismatch", .invalidArgument)
        case .popupNotFound: ServiceErrorDeclaration(-33106, "Popup not found", .notFound)
        case .wrongPopupKind: ServiceErrorDeclaration(-33107, "Wrong popup kind", .failedPrecondition)
        case .requestGenerationFailed: ServiceErrorDeclaration(-33108, "Request generation failed", .unavailable)
        case .networkError: ServiceErrorDeclaration(-33109, "Network error", .unavailable)
        case .secureTokenInUse: ServiceErrorDeclaration(-33110, "Secure token in use", .alreadyExists)
        case .brnInUse: ServiceErrorDeclaration(-33111, "Code in use", .alreadyExists)
        }
    }

    /// The sample `data` `sandbox.failNext` sends when the tester gives none.
    public var sampleData: PBBAErrorData { PBBAErrorData(type: rawValue, status: status.rawValue, fatal: fatal) }

    /// What the bank app's decision on a request (approve or decline) can fail with.
    public static var bankDecision: [RPCErrorDescriptor] {
        [paymentRequestNotFound, brnNotFound, brnMismatch, requestExpired, paymentAlreadyFinished].map(\.descriptor)
    }
}
