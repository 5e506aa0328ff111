import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A purchase unit's amount (Orders v2 `amount_with_breakdown`): the total, and optionally how
/// it is made up. With a breakdown, the total must equal item total + tax + shipping + handling +
/// insurance − shipping discount − discount (`AMOUNT_MISMATCH` otherwise).
public struct AmountWithBreakdown: JSONModel, Equatable {
    /// The ISO 4217 code of the total and of every part.
    /// - Example: "USD"
    public var currencyCode: CurrencyCode
    /// The total, a decimal string.
    /// - Example: "10.00"
    public var value: Amount
    /// How the total is made up.
    public var breakdown: AmountBreakdown?
}

/// The parts of a total (Orders v2 `amount_breakdown`), each in the total's currency.
public struct AmountBreakdown: JSONModel, Equatable {
    /// The sum of the items.
    public var itemTotal: OrderMoney?
    /// Shipping.
    public var shipping: OrderMoney?
    /// Handling.
    public var handling: OrderMoney?
    /// Tax.
    public var taxTotal: OrderMoney?
    /// Insurance.
    public var insurance: OrderMoney?
    /// A discount on shipping (subtracted).
    public var shippingDiscount: OrderMoney?
    /// A discount (subtracted).
    public var discount: OrderMoney?
}
