#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// What `dotpay.getChannelList` prepares for `dotpay.pay` (`DPPaymentDetails`): the payment with
/// its `control` fixed, and the language and system it runs in.
public struct PaymentDetails: JSONModel, Equatable {
    /// The payment, `control` filled in.
    public var paymentInfo: PaymentInfo
    /// The language of the flow (`pl` or `en`).
    public var language: String
    /// `test` in debug mode, else `production`.
    public var system: String
    /// When the details were prepared, on the profile's sandbox clock.
    public var preparedAt: Date
}
