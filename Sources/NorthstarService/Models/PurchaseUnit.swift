import PayRPCJSON
import PayRPCSchema

/// What the buyer pays for in one order (`PurchaseUnit`, Orders v2 `purchase_unit_request`).
public struct PurchaseUnit: JSONModel, Equatable {
    /// The merchant's id of the unit; required when an order has more than one.
    /// - MaxLength: 256
    public var referenceId: String?
    /// The amount.
    public var amount: AmountWithBreakdown
    /// What the unit is.
    /// - MaxLength: 127
    public var description: String?
    /// The merchant's own reference, returned with the order.
    /// - MaxLength: 127
    public var customId: String?
    /// The merchant's invoice number.
    /// - MaxLength: 127
    public var invoiceId: String?
}
