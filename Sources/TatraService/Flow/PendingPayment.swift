import PayRPCJSON

/// A payment `tatra.executePayment` accepted and `tatra.authorizePayment` has not yet authorized;
/// it lives in the flow that executed it and nowhere else.
///
/// Only the parts authorization uses, in types of this module and the standard library, rather
/// than the params' `Contact`: a contact holds a Foundation `URL`, whose layout is known only at
/// run time, so every copy and drop of a payment holding one would go through generic value
/// witnesses (docs/benchmarks.md, "Fast paths of the kit").
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
