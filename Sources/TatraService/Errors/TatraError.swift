#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCServiceKit

/// An error of the PayKey error factory (Android `PayKeyErrorFactory`, iOS `TATRAErrorFactory`),
/// typed: one static factory per document method, each with the document's parameters.
///
/// It reaches the client as a JSON-RPC error with the type's stable code, its message, and a
/// `data` object (``TatraErrorData``, ``AuthRequiredErrorData``, ``WrongPinErrorData``,
/// ``BankTempOOSErrorData`` or ``MissingContactPermissionErrorData``) carrying `type`, `status`,
/// `fatal` and the factory's own fields.
///
/// Fatal errors (the document's "Fatal Error": irrecoverable, the user can only exit the flow):
/// `general`, `serviceUnavailable`, and `wrongPin` once the application is blocked. Every other
/// error lets the user correct the input, retry, authorize or resubmit.
public typealias TatraError = ServiceError<TatraErrorType>

/// The `data` of a tatra error, one case per shape of the factory's parameters.
public enum TatraErrorPayload: JSONEncodable, Sendable, Equatable {
    /// A title and a message.
    case message(TatraErrorData)
    /// Authorization required.
    case authRequired(AuthRequiredErrorData)
    /// Wrong PIN.
    case wrongPin(WrongPinErrorData)
    /// Bank temporarily out of service.
    case bankTempOOS(BankTempOOSErrorData)
    /// Missing contact permission.
    case missingContactPermission(MissingContactPermissionErrorData)

    /// Writes the case's model.
    public func encode(to writer: inout JSONWriter) {
        switch self {
        case .message(let data): data.encode(to: &writer)
        case .authRequired(let data): data.encode(to: &writer)
        case .wrongPin(let data): data.encode(to: &writer)
        case .bankTempOOS(let data): data.encode(to: &writer)
        case .missingContactPermission(let data): data.encode(to: &writer)
        }
    }

    /// Whether the error is fatal, as its `data` says.
    public var fatal: Bool {
        switch self {
        case .message(let data): data.fatal
        case .authRequired(let data): data.fatal
        case .wrongPin(let data): data.fatal
        case .bankTempOOS(let data): data.fatal
        case .missingContactPermission(let data): data.fatal
        }
    }
}

extension ServiceError where Kind == TatraErrorType {
    private static func message(
        _ type: TatraErrorType, title: String, message: String, status: TatraErrorStatus?
    ) -> TatraError {
        TatraError(
            type,
            data: .message(
                TatraErrorData(
                    type: type, status: status ?? type.defaultStatus, fatal: type.fatal,
                    title: title, message: message)))
    }

    /// `generalError(title, message)`: something went wrong. Fatal.
    public static func general(title: String, message: String, status: TatraErrorStatus? = nil) -> TatraError {
        Self.message(.general, title: title, message: message, status: status)
    }

    /// `authRequiredError(title, showConditions)`: the user must enter the PIN (`tatra.authorize`).
    public static func authRequired(title: String, showConditions: Bool) -> TatraError {
        let data = AuthRequiredErrorData(
            type: .authRequired, status: .unauthenticated, fatal: false, title: title, showConditions: showConditions)
        return TatraError(.authRequired, data: .authRequired(data))
    }

    /// `executePaymentError(title, message)`: the payment cannot be made as requested.
    public static func executePayment(title: String, message: String, status: TatraErrorStatus? = nil) -> TatraError {
        Self.message(.executePayment, title: title, message: message, status: status)
    }

    /// `amountLimitError(title, message)`: the amount is outside the setup's limits.
    public static func amountLimit(title: String, message: String) -> TatraError {
        Self.message(.amountLimit, title: title, message: message, status: nil)
    }

    /// `sameRecipientError(title, message)`: the recipient is the user.
    public static func sameRecipient(title: String, message: String) -> TatraError {
        Self.message(.sameRecipient, title: title, message: message, status: nil)
    }

    /// `serviceUnavaiableError(title, message)`: the bank's service is down. Fatal.
    public static func serviceUnavailable(title: String, message: String) -> TatraError {
        Self.message(.serviceUnavailable, title: title, message: message, status: nil)
    }

    /// `networkError(title, message)`: the bank could not be reached; retrying may work.
    public static func network(title: String, message: String) -> TatraError {
        Self.message(.network, title: title, message: message, status: nil)
    }

    /// `wrongPinError(title, applicationBlocked)`: the PIN is wrong; fatal once the application is
    /// blocked.
    public static func wrongPin(title: String, applicationBlocked: Bool) -> TatraError {
        let status: TatraErrorStatus = applicationBlocked ? .failedPrecondition : .unauthenticated
        let data = WrongPinErrorData(
            type: .wrongPin, status: status, fatal: applicationBlocked, title: title, applicationBlocked: applicationBlocked)
        return TatraError(.wrongPin, data: .wrongPin(data))
    }

    /// `bankTempOOSError(paymentId)`: the bank is temporarily out of service; the payment can be
    /// resubmitted with `tatra.resubmitPayment`.
    public static func bankTempOOS(paymentId: String) -> TatraError {
        let data = BankTempOOSErrorData(type: .bankTempOOS, status: .unavailable, fatal: false, paymentId: paymentId)
        return TatraError(.bankTempOOS, data: .bankTempOOS(data))
    }

    /// `missingContactPermissionError(title, subtitle, uri)`: the contacts may not be read.
    public static func missingContactPermission(title: String, subtitle: String, uri: URL) -> TatraError {
        let data = MissingContactPermissionErrorData(
            type: .missingContactPermission, status: .permissionDenied, fatal: false, title: title, subtitle: subtitle, uri: uri)
        return TatraError(.missingContactPermission, data: .missingContactPermission(data))
    }

    /// Which factory error this is.
    public var type: TatraErrorType { kind }

    /// Whether the error is fatal.
    public var isFatal: Bool { data.fatal }
}
