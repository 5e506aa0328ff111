import PayRPCCore
import PayRPCServiceKit

/// Every dotpay error: its stable code in -33400…-33499, message and canonical status. The wire
/// error, its declaration and `sandbox.failNext`'s sample come from the kit (``ServiceErrorKind``).
public enum DotpayErrorKind: String, ServiceErrorKind {
    /// The payment flow failed (`didFailToFinishPaymentWithError`).
    case paymentFailed
    /// No channel has that id.
    case channelNotFound
    /// The channel does not take the currency or the amount, or is offline for a fast payment.
    case channelUnavailable
    /// The language is not one of `dotpay.getLanguageList`.
    case languageNotSupported
    /// The currency is not one of `dotpay.getCurrencyList`.
    case currencyNotSupported
    /// The card was refused at registration.
    case cardRefused
    /// No remembered card has that id (or it is hidden by `useInternalCards = false`).
    case cardNotFound
    /// A 1Click payment without a card, and no default card.
    case noDefaultCard
    /// 1Click is disabled (`setOneClickEnabled false`).
    case oneClickDisabled
    /// No payment in the history has that id.
    case paymentNotFound
    /// The status could not be read again (`didFailedToUpdatePaymentSummary`).
    case updateFailed
    /// Another payment already has that `control`.
    case duplicateControl

    public static let range = ServiceCodeRange.dotpay

    public var code: RPCError.Code {
        switch self {
        case .paymentFailed: -33400
        case .channelNotFound: -33401
        case .channelUnavailable: -33402
        case .languageNotSupported: -33403
        case .currencyNotSupported: -33404
        case .cardRefused: -33405
        case .cardNotFound: -33406
        case .noDefaultCard: -33407
        case .oneClickDisabled: -33408
        case .paymentNotFound: -33409
        case .updateFailed: -33410
        case .duplicateControl: -33411
        }
    }

    public var message: String {
        switch self {
        case .paymentFailed: "Payment failed"
        case .channelNotFound: "Channel not found"
        case .channelUnavailable: "Channel unavailable"
        case .languageNotSupported: "Language not supported"
        case .currencyNotSupported: "Currency not supported"
        case .cardRefused: "Card refused"
        case .cardNotFound: "Card not found"
        case .noDefaultCard: "No default card"
        case .oneClickDisabled: "1Click disabled"
        case .paymentNotFound: "Payment not found"
        case .updateFailed: "Update failed"
        case .duplicateControl: "Duplicate control"
        }
    }

    public var status: CanonicalStatus {
        switch self {
        case .paymentFailed, .updateFailed: .unavailable
        case .channelNotFound, .cardNotFound, .paymentNotFound: .notFound
        case .channelUnavailable, .noDefaultCard, .oneClickDisabled: .failedPrecondition
        case .languageNotSupported, .currencyNotSupported, .cardRefused: .invalidArgument
        case .duplicateControl: .alreadyExists
        }
    }

    public var sampleData: DotpayErrorData { DotpayErrorData(type: rawValue, status: status.rawValue, detail: message) }
}
