#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON

/// A payment `tatra.executePayment` accepted and `tatra.authorizePayment` has not yet authorized;
/// it lives in the flow that executed it and nowhere else.
///
/// Only the parts authorization uses, in types of this module and the standard library: a
/// `Contact` (whose `URL` is Foundation's) has a layout known only at run time, and every payment copied into and dropped from the flow then went through the generic
/// value-witness calls (about 900 instructions per `tatra.executePayment`). (A final class costs
/// more again: allocating one and freeing the one it replaces.)
struct PendingPayment: Sendable, Equatable {
    /// Which payment of the connection this is (1, 2, ...): tells a payment from the one that
    /// replaced it while it was being authorized.
    var serial: UInt64
    /// The amount in cents (executePayment accepts at most two decimals).
    var cents: Int64
    /// The recipient's full name.
    var recipientName: String
    /// The phone the payment goes to (the recipient's first).
    var phone: String
    /// The reference (message for the recipient), if any.
    var reference: String?
    /// How many times the bank is out of service for this payment (a magic amount), else 0.
    var outOfServiceTimes: Int

    /// The amount, exactly.
    var amount: Amount { PaymentText.amount(cents: cents) }
}
