import PayRPCCore
import PayRPCJSON
import PayRPCSchema

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

extension TatraErrorType {
    /// The stable JSON-RPC code of the error (tatra's range is -33000 to -33099).
    public var code: RPCError.Code {
        switch self {
        case .general: RPCError.Code(-33000)
        case .authRequired: RPCError.Code(-33001)
        case .executePayment: RPCError.Code(-33002)
        case .amountLimit: RPCError.Code(-33003)
        case .sameRecipient: RPCError.Code(-33004)
        case .serviceUnavailable: RPCError.Code(-33005)
        case .network: RPCError.Code(-33006)
        case .wrongPin: RPCError.Code(-33007)
        case .bankTempOOS: RPCError.Code(-33008)
        case .missingContactPermission: RPCError.Code(-33009)
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
}
