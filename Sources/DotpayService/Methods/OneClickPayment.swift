import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Pays with a remembered card in one click, without the payment form
/// (`oneClickPaymentWithPaymentInfo:paymentCard:`, *płatność kartą bez wypełnienia formularza*).
///
/// Without `paymentCard` the default card pays (the document: "if `paymentCard:nil`, the payment
/// is made with the default card"). Refused while 1Click is disabled. Magic amounts as
/// `dotpay.pay`.
public enum OneClickPayment: DotpayMethod {
    public static let name = "dotpay.oneClickPayment"
    public static let traits: MethodTraits = [.mutates]

    /// The payment and the card.
    public struct Params: JSONModel, Equatable {
        /// The payment.
        public var paymentInfo: PaymentInfo
        /// The card's id; the default card when absent.
        /// - MinLength: 1
        /// - MaxLength: 128
        public var paymentCard: String?
    }

    public typealias Result = PaymentSummary
    public static let errors = [
        DotpayErrorKind.paymentFailed, .oneClickDisabled, .noDefaultCard, .cardNotFound, .channelUnavailable,
        .currencyNotSupported,
    ].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] { [UrlcDeliveryFailed.self] }
}
