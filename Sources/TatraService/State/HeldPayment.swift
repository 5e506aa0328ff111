#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A payment the bank answered with `bankTempOOSError`: kept per profile until
/// `tatra.resubmitPayment` completes it. Stored inside ``TatraProfileState`` with its generated
/// codec.
struct HeldPayment: JSONModel, Equatable {
    /// The id the error carried.
    var paymentId: String
    /// The amount.
    var amount: Amount
    /// The recipient's name.
    var recipientName: String
    /// The phone the payment goes to.
    var phone: String
    /// The reference, if any.
    var reference: String?
    /// How many more resubmissions the bank is out of service for.
    var outOfServiceLeft: Int

    /// The flow's pending payment, held under `paymentId` after its first out-of-service answer.
    init(holding pending: PendingPayment, paymentId: String) {
        self.paymentId = paymentId
        self.amount = pending.amount
        self.recipientName = pending.recipientName
        self.phone = pending.phone
        self.reference = pending.reference
        self.outOfServiceLeft = pending.outOfServiceTimes - 1
    }
}
