import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The channels that can take a payment, with the payment's details for `dotpay.pay`
/// (`getChannelListForPaymentInfo:` and its `online:`, `withIds:` and `group:` variants, *lista
/// kanałów*).
///
/// Give at most one of `online`, `ids`, `group`, as the document's four variants do. Channels
/// that do not take the payment's currency or amount are left out, as Dotpay leaves them out.
/// `paymentDetails.paymentInfo.control` is generated (from the profile's seeded stream) when absent;
/// a `control` used before is accepted (the document recommends unique values, it does not refuse
/// repeats). The completion's `NSError` (`networkError`, `generalError`) is injected with
/// `sandbox.failNext`.
public enum GetChannelList: DotpayMethod {
    public static let name = "dotpay.getChannelList"

    /// The payment and the variant.
    public struct Params: JSONModel, Equatable {
        /// The payment.
        public var paymentInfo: PaymentInfo
        /// Only the channels online (`true`) or offline (`false`) now.
        public var online: Bool?
        /// Only these channels.
        /// - MinItems: 1
        public var ids: [Int]?
        /// Only the channels of this group (`cards`, `transfers`, `blik`, `wallets`, `cash`).
        /// - MinLength: 1
        public var group: String?
    }

    /// `channelList` and `paymentDetails` of the completion block.
    public struct Result: JSONModel, Equatable {
        /// The channels.
        public var channels: [PaymentChannel]
        /// The payment's details, for `dotpay.pay`.
        public var paymentDetails: PaymentDetails
    }

    public static let errors = [DotpayErrorKind.currencyNotSupported, .networkError, .generalError].map(\.descriptor)
}
