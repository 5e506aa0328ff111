#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A payment `tatra.executePayment` accepted and `tatra.authorizePayment` has not yet authorized;
/// it lives in the flow that executed it and nowhere else.
struct PendingPayment: Sendable, Equatable {
    /// Which payment of the connection this is (1, 2, ...): tells a payment from the one that
    /// replaced it while it was being authorized.
    var serial: UInt64
    /// The amount.
    var amount: Decimal
    /// The recipient.
    var recipient: Contact
    /// The phone the payment goes to (the recipient's first).
    var phone: String
    /// The reference (message for the recipient), if any.
    var reference: String?
    /// How many times the bank is out of service for this payment (a magic amount), else 0.
    var outOfServiceTimes: Int
}
