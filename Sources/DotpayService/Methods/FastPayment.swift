import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Pays through a given channel without the channel list and the payment form
/// (`fastPaymentWithPaymentInfo:paymentChannelId:showingDefaultSummary:`, *płatność z pominięciem
/// formularza płatniczego*), for a channel taken out into the app's cart (Visa Checkout).
///
/// The channel id is mandatory and the channel must be online; the channel's own parameters go
/// in `paymentInfo.additionalInformation`. Magic amounts as `dotpay.pay`.
public enum FastPayment: DotpayMethod {
    public static let name = "dotpay.fastPayment"
    public static let traits: MethodTraits = [.mutates]

    /// The payment and the channel.
    public struct Params: JSONModel, Equatable {
        /// The payment.
        public var paymentInfo: PaymentInfo
        /// The channel.
        /// - Minimum: 1
        public var paymentChannelId: Int
        /// Whether the SDK shows its default summary screen.
        public var showingDefaultSummary: Bool
    }

    public typealias Result = PaymentSummary
    public static let errors = [
        DotpayErrorKind.paymentFailed, .channelNotFound, .channelUnavailable, .currencyNotSupported,
    ].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] { [UrlcDeliveryFailed.self] }
}
