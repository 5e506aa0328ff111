import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Every dotpay error, with its stable code in -33400…-33499.
public enum DotpayErrorKind: String, CaseIterable, Sendable {
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

    /// The stable code.
    public var code: RPCError.Code { RPCError.Code(-33400 - (Self.allCases.firstIndex(of: self) ?? 0)) }

    /// The message, unique within dotpay.
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

    /// The gRPC canonical status.
    public var status: String {
        switch self {
        case .paymentFailed, .updateFailed: "UNAVAILABLE"
        case .channelNotFound, .cardNotFound, .paymentNotFound: "NOT_FOUND"
        case .channelUnavailable, .noDefaultCard, .oneClickDisabled: "FAILED_PRECONDITION"
        case .languageNotSupported, .currencyNotSupported, .cardRefused: "INVALID_ARGUMENT"
        case .duplicateControl: "ALREADY_EXISTS"
        }
    }

    /// The declaration, with sample data for `sandbox.failNext`.
    public var descriptor: RPCErrorDescriptor {
        var writer = JSONWriter()
        DotpayErrorData(type: rawValue, status: status, detail: message).encode(to: &writer)
        return RPCErrorDescriptor(code: code, message: message, data: DotpayErrorData.self,
                                  sampleData: try? JSONValue(parsing: writer.text))
    }
}
