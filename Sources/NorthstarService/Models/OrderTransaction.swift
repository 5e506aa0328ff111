import PayRPCJSON
import PayRPCSchema

/// The payment an order's execution made: a capture, or an authorization to capture later
/// (Orders v2 `purchase_units[].payments.captures[]` / `authorizations[]`).
public struct OrderTransaction: JSONModel, Equatable {
    /// The capture's or authorization's id.
    public var id: OrdersV2ID
    /// Which of the two it is.
    public var kind: OrderIntent
    /// `COMPLETED` for a capture, `CREATED` for an authorization.
    public var status: String
    /// The amount, the order's total.
    public var amount: OrderMoney
}
