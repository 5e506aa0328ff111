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

extension TatraErrorType: DeclaredErrorKind {
    public static let range = TatraService.codeRange

    /// Each kind's code (tatra's range is -33000 to -33099), message and usual canonical status
    /// (an instance may be more precise) and whether it is fatal: the document's fatal errors are
    /// `general` and `serviceUnavailable` (`wrongPin` is fatal once the application is blocked,
    /// which its `data` says). The message is a short title, unique within tatra, from
    /// which clients derive an exception class name (`Wrong PIN` → `WrongPin`).
    public var declaration: ServiceErrorDeclaration {
        switch self {
        case .general: ServiceErrorDeclaration(-33000, "General error", .unknown, fatal: true)
        case .authRequired: ServiceErrorDeclaration(-33001, "Authorization required", .unauthenticated)
        case .executePayment: ServiceErrorDeclaration(-33002, "Execute payment error", .invalidArgument)
        case .amountLimit: ServiceErrorDeclaration(-33003, "Amount limit", .outOfRange)
        case .sameRecipient: ServiceErrorDeclaration(-33004, "Same recipient", .invalidArgument)
        case .serviceUnavailable: ServiceErrorDeclaration(-33005, "Service unavailable", .unavailable, fatal: true)
        case .network: ServiceErrorDeclaration(-33006, "Network error", .unavailable)
        case .wrongPin: ServiceErrorDeclaration(-33007, "Wrong PIN", .unauthenticated)
        case .bankTempOOS: ServiceErrorDeclaration(-33008, "Bank temporarily out of service", .unavailable)
        case .missingContactPermission: ServiceErrorDeclaration(-33009, "Missing contact permission", .permissionDenied)
        }
    }

    /// The usual status as the `data` of tatra's errors spells it: ``TatraErrorStatus`` has every
    /// status a kind declares (`TatraErrorTests` checks it).
    public var defaultStatus: TatraErrorStatus { TatraErrorStatus(rawValue: status.rawValue) ?? .unknown }

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
