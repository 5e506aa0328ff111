#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// An operation related to a payment in its history (*transakcje powiązane*, such as a later
/// refund), or the payment itself.
public struct RelatedOperation: JSONModel, Equatable {
    /// Dotpay's operation number (`M1234-5678`).
    public var number: OperationNumber
    /// `payment` or `refund`.
    public var type: String
    /// Its status.
    public var status: PaymentStatus
    /// Its amount.
    public var amount: Amount
    /// When it happened.
    public var date: Date
}
