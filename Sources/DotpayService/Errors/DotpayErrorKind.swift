import PayRPCCore
import PayRPCServiceKit

/// Every dotpay error: its stable code in -33400…-33499, message and canonical status. The wire
/// error, its declaration and `sandbox.failNext`'s sample come from the kit (``ServiceErrorKind``).
public enum DotpayErrorKind: String, DeclaredErrorKind {
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

    public static let range = DotpayService.codeRange

    /// Each kind's code, message and canonical status.
    public var declaration: ServiceErrorDeclaration {
        switch self {
        case .paymentFailed: ServiceErrorDeclaration(-33400, "Payment failed", .unavailable)
        case .channelNotFound: ServiceErrorDeclaration(-33401, "Channel not found", .notFound)
        case .channelUnavailable: ServiceErrorDeclaration(-33402, "Channel unavailable", .failedPrecondition)
        case .languageNotSupported: ServiceErrorDeclaration(-33403, "Language not supported", .invalidArgument)
        case .currencyNotSupported: ServiceErrorDeclaration(-33404, "Currency not supported", .invalidArgument)
        case .cardRefused: ServiceErrorDeclaration(-33405, "Card refused", .invalidArgument)
        case .cardNotFound: ServiceErrorDeclaration(-33406, "Card not found", .notFound)
        case .noDefaultCard: ServiceErrorDeclaration(-33407, "No default card", .failedPrecondition)
        case .oneClickDisabled: ServiceErrorDeclaration(-33408, "1Click disabled", .failedPrecondition)
        case .paymentNotFound: ServiceErrorDeclaration(-33409, "Payment not found", .notFound)
        case .updateFailed: ServiceErrorDeclaration(-33410, "Update failed", .unavailable)
        // -33411 was `Duplicate control` until repeated `control` values were allowed (issue 28.17).
        case .refundRefused: ServiceErrorDeclaration(-33412, "Refund refused", .failedPrecondition)
        case .masterpassAuthorizationRefused:
            ServiceErrorDeclaration(-33413, "Masterpass authorization refused", .permissionDenied)
        case .noAuthorizationPending: ServiceErrorDeclaration(-33414, "No authorization pending", .notFound)
        case .networkError: ServiceErrorDeclaration(-33415, "Network error", .unavailable)
        case .generalError: ServiceErrorDeclaration(-33416, "General error", .unknown)
        }
    }

    public var sampleData: DotpayErrorData { DotpayErrorData(type: rawValue, status: status.rawValue, detail: message) }
}
