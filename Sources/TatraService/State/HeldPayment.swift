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

    init(
        paymentId: String, amount: Amount, recipientName: String, phone: String, reference: String?,
        outOfServiceLeft: Int
    ) {
        self.paymentId = paymentId
        self.amount = amount
        self.recipientName = recipientName
        self.phone = phone
        self.reference = reference
        self.outOfServiceLeft = outOfServiceLeft
    }
}
