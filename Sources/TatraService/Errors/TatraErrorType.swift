#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Which error of the PayKey error factory (Android `PayKeyErrorFactory`, iOS `TATRAErrorFactory`)
/// an error is: the `type` member of its `data`.
public enum TatraErrorType: String, JSONModel, CaseIterable {
    /// `generalError(title, message)`.
    case general
    /// `authRequiredError(title, showConditions)` / `authRequired:title:`.
    case authRequired
    /// `executePaymentError(title, message)`.
    case executePayment
    /// `amountLimitError(title, message)`.
    case amountLimit
    /// `sameRecipientError(title, message)`.
    case sameRecipient
    /// `serviceUnavaiableError(title, message)` (the document's spelling).
    case serviceUnavailable
    /// `networkError(title, message)`.
    case network
    /// `wrongPinError(title, applicationBlocked)`.
    case wrongPin
    /// `bankTempOOSError(paymentId)`.
    case bankTempOOS
    /// `missingContactPermissionError(title, subtitle, uri)` (Android only in the document).
    case missingContactPermission
}

extension TatraErrorType: ServiceErrorKind {
    public static let range = ServiceCodeRange.tatra

    /// The stable JSON-RPC code of the error (tatra's range is -33000 to -33099).
    public var code: RPCError.Code {
        switch self {
        case .general: -33000
        case .authRequired: -33001
        case .executePayment: -33002
        case .amountLimit: -33003
        case .sameRecipient: -33004
        case .serviceUnavailable: -33005
        case .network: -33006
        case .wrongPin: -33007
        case .bankTempOOS: -33008
        case .missingContactPermission: -33009
        }
    }

    /// The error's `message`: a short title, unique within tatra, from which clients derive an
    /// exception class name (`Wrong PIN` → `WrongPin`).
    public var message: String {
        switch self {
        case .general: "General error"
        case .authRequired: "Authorization required"
        case .executePayment: "Execute payment error"
        case .amountLimit: "Amount limit"
        case .sameRecipient: "Same recipient"
        case .serviceUnavailable: "Service unavailable"
        case .network: "Network error"
        case .wrongPin: "Wrong PIN"
        case .bankTempOOS: "Bank temporarily out of service"
        case .missingContactPermission: "Missing contact permission"
        }
    }

    /// The gRPC canonical status the error usually carries (an instance may be more precise).
    public var defaultStatus: TatraErrorStatus {
        switch self {
        case .general: .unknown
        case .authRequired: .unauthenticated
        case .executePayment: .invalidArgument
        case .amountLimit: .outOfRange
        case .sameRecipient: .invalidArgument
        case .serviceUnavailable: .unavailable
        case .network: .unavailable
        case .wrongPin: .unauthenticated
        case .bankTempOOS: .unavailable
        case .missingContactPermission: .permissionDenied
        }
    }

    /// The canonical status (``defaultStatus``).
    public var status: CanonicalStatus { CanonicalStatus(rawValue: defaultStatus.rawValue) }

    /// The document's fatal errors: `general` and `serviceUnavailable` (`wrongPin` is fatal once
    /// the application is blocked, which its `data` says).
    public var fatal: Bool { self == .general || self == .serviceUnavailable }

    /// The schema of the kind's `data`: the factory's parameters.
    public var dataSchema: any JSONSchemaProvider.Type {
        switch self {
        case .authRequired: AuthRequiredErrorData.self
        case .wrongPin: WrongPinErrorData.self
        case .bankTempOOS: BankTempOOSErrorData.self
        case .missingContactPermission: MissingContactPermissionErrorData.self
        default: TatraErrorData.self
        }
    }

    /// What `sandbox.failNext` sends when the tester gives no `data`.
    public var sampleData: TatraErrorPayload {
        let error: TatraError
        switch self {
        case .general: error = .general(title: "Something went wrong", message: "Please try again later.")
        case .authRequired: error = .authRequired(title: "Enter your PIN", showConditions: false)
        case .executePayment: error = .executePayment(title: "Payment failed", message: "The payment could not be made.")
        case .amountLimit: error = .amountLimit(title: "Amount limit", message: "The amount is outside your limits.")
        case .sameRecipient: error = .sameRecipient(title: "Same recipient", message: "You cannot send money to yourself.")
        case .serviceUnavailable:
            error = .serviceUnavailable(title: "Service unavailable", message: "The bank's service is down.")
        case .network: error = .network(title: "No connection", message: "Check your connection and try again.")
        case .wrongPin: error = .wrongPin(title: "Wrong PIN", applicationBlocked: false)
        case .bankTempOOS: error = .bankTempOOS(paymentId: "payment-0")
        case .missingContactPermission:
            error = .missingContactPermission(
                title: "Contacts", subtitle: "Allow access to your contacts.",
                uri: URL(string: "app-settings:")!)
        }
        return error.data
    }

    /// The errors every bank call can return in the sandbox (`sandbox.tatra.failNextCall` makes
    /// any of them happen): general, service unavailable, network.
    public static var bankCall: [RPCErrorDescriptor] { [general.descriptor, serviceUnavailable.descriptor, network.descriptor] }
}
