#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// An order as the SDK hands it to the merchant (`OrderResponse`: `orderID`, `intent`,
/// `purchaseUnits`, `status`), with what the document leaves open ("orderResponse. ?") filled
/// from Orders v2: the card used, the payment made, the links and the times.
public struct OrderResponse: JSONModel, Equatable {
    /// The order's id: 17 upper-case letters and digits, as Orders v2 ids are.
    /// - Example: "5O190127TN364715T"
    public var orderID: OrdersV2ID
    /// Capture or authorize.
    public var intent: OrderIntent
    /// Where the order is.
    public var status: OrderStatus
    /// The purchase units.
    public var purchaseUnits: [PurchaseUnit]
    /// The card that paid or was accepted for it.
    public var card: CardSummary?
    /// The capture or authorization the execution made.
    public var transaction: OrderTransaction?
    /// The order's links (`payer-action` while 3-D Secure is pending).
    public var links: [LinkDescription]
    /// When the order was created, on the profile's sandbox clock.
    public var createTime: Date
    /// When it last changed.
    public var updateTime: Date
    /// When an order that was never paid expires.
    public var expiresAt: Date
}
