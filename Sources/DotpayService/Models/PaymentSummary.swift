#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A payment as the history keeps it (`DPPaymentSummary`, *podsumowanie płatności*).
public struct PaymentSummary: JSONModel, Equatable {
    /// Dotpay's operation number of the payment.
    public var paymentId: OperationNumber
    /// The shop's `control` of the payment.
    public var control: String
    /// Its status; only `completed` means paid.
    public var status: PaymentStatus
    /// The amount.
    public var amount: Amount
    /// The currency.
    public var currency: String
    /// The payment's title.
    public var description: String
    /// The channel used.
    public var channelId: Int
    /// The channel's name.
    public var channelName: String
    /// The merchant's account id.
    public var merchantID: String
    /// `test` in debug mode, else `production`.
    public var system: String
    /// Whether the SDK's summary screen was shown (`shouldShowViewControllerForPaymentSummary`).
    public var summaryScreenShown: Bool
    /// The 1Click card used, if any.
    public var cardId: String?
    /// When the payment was made.
    public var createdAt: Date
    /// When its status last changed.
    public var updatedAt: Date
    /// The payment and the operations related to it.
    public var relatedOperations: [RelatedOperation]
}
