import Foundation
import PayRPCJSON
import PayRPCSchema

/// The status of a payment request, as `getPaymentStatus` of the merchant backend answers it
/// (document section 4.2.4).
public struct PaymentStatusInfo: JSONModel, Equatable {
    /// inProgress, completed, declined or expired (computed against the clock).
    public var status: PaymentStatus
    /// The request's non-secret id.
    public var requestId: String
    /// The request's six-character code.
    public var brn: String
    /// The amount, a decimal string.
    public var amount: Amount
    /// ISO 4217 currency code.
    public var currency: String
    /// The merchant's reference.
    public var reference: String
    /// When the request expires (or expired) unless decided before.
    public var expiresAt: Date
    /// When the Consumer approved or declined it, if they did.
    public var decidedAt: Date?
}
