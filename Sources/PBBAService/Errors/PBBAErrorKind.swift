import PayRPCCore
import PayRPCServiceKit

/// Every PBBA domain error: its stable code in -33100...-33199, its short unique title, its gRPC
/// status and whether it ends the payment request. The one place each is declared; methods list
/// their ``descriptor``s, and the kit's ``ServiceError`` builds the wire error from them.
public enum PBBAErrorKind: String, ServiceErrorKind {
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

    public static let range = ServiceCodeRange.pbba

    /// The stable code.
    public var code: RPCError.Code {
        switch self {
        case .paymentRequestNotFound: -33100
        case .brnNotFound: -33101
        case .requestExpired: -33102
        case .paymentAlreadyFinished: -33103
        case .noBankAppInstalled: -33104
        case .brnMismatch: -33105
        case .popupNotFound: -33106
        case .wrongPopupKind: -33107
        case .requestGenerationFailed: -33108
        case .networkError: -33109
        case .secureTokenInUse: -33110
        case .brnInUse: -33111
        }
    }

    /// The short title, unique within the service.
    public var message: String {
        switch self {
        case .paymentRequestNotFound: "Payment request not found"
        case .brnNotFound: "Code not found"
        case .requestExpired: "Request expired"
        case .paymentAlreadyFinished: "Payment already finished"
        case .noBankAppInstalled: "No bank app installed"
        case .brnMismatch: "Code mismatch"
        case .popupNotFound: "Popup not found"
        case .wrongPopupKind: "Wrong popup kind"
        case .requestGenerationFailed: "Request generation failed"
        case .networkError: "Network error"
        case .secureTokenInUse: "Secure token in use"
        case .brnInUse: "Code in use"
        }
    }

    /// The gRPC canonical status.
    public var status: CanonicalStatus {
        switch self {
        case .paymentRequestNotFound, .brnNotFound, .popupNotFound: .notFound
        case .requestExpired, .paymentAlreadyFinished, .noBankAppInstalled, .wrongPopupKind: .failedPrecondition
        case .brnMismatch: .invalidArgument
        case .requestGenerationFailed, .networkError: .unavailable
        case .secureTokenInUse, .brnInUse: .alreadyExists
        }
    }

    /// Whether the payment request can no longer succeed (the app should start a new one).
    public var fatal: Bool {
        switch self {
        case .paymentRequestNotFound, .brnNotFound, .requestExpired, .paymentAlreadyFinished: true
        default: false
        }
    }

    /// The sample `data` `sandbox.failNext` sends when the tester gives none.
    public var sampleData: PBBAErrorData { PBBAErrorData(type: rawValue, status: status.rawValue, fatal: fatal) }

    /// What the bank app's decision on a request (approve or decline) can fail with.
    public static var bankDecision: [RPCErrorDescriptor] {
        [paymentRequestNotFound, brnNotFound, brnMismatch, requestExpired, paymentAlreadyFinished].map(\.descriptor)
    }
}
