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
    /// A refund of a payment that is not completed, or of more than is left of it
    /// (`sandbox.dotpay.refund`).
    case refundRefused
    /// The app answered a Masterpass authorization delegate with `false`
    /// (`didCreateAuthorization:` / `didAuthorizeUser:`): the wallet aborted the payment.
    case masterpassAuthorizationRefused
    /// No Masterpass authorization of that id and kind waits for the app's answer.
    case noAuthorizationPending
    /// A completion's `NSError` for a network failure (the lists of languages, currencies and
    /// channels; injected with `sandbox.failNext`).
    case networkError
    /// A completion's `NSError` for any other failure (injected with `sandbox.failNext`).
    case generalError

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
        // -33411 was `Duplicate control` until repeated `control` values were allowed (issue 28.17).
        case .refundRefused: -33412
        case .masterpassAuthorizationRefused: -33413
        case .noAuthorizationPending: -33414
        case .networkError: -33415
        case .generalError: -33416
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
        case .refundRefused: "Refund refused"
        case .masterpassAuthorizationRefused: "Masterpass authorization refused"
        case .noAuthorizationPending: "No authorization pending"
        case .networkError: "Network error"
        case .generalError: "General error"
        }
    }

    public var status: CanonicalStatus {
        switch self {
        case .paymentFailed, .updateFailed, .networkError: .unavailable
        case .channelNotFound, .cardNotFound, .paymentNotFound, .noAuthorizationPending: .notFound
        case .channelUnavailable, .noDefaultCard, .oneClickDisabled, .refundRefused: .failedPrecondition
        case .languageNotSupported, .currencyNotSupported, .cardRefused: .invalidArgument
        case .masterpassAuthorizationRefused: .permissionDenied
        case .generalError: .unknown
        }
    }

    public var sampleData: DotpayErrorData { DotpayErrorData(type: rawValue, status: status.rawValue, detail: message) }
}
