#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// The payment an order's execution made: a capture, or an authorization to capture later
/// (Orders v2 `purchase_units[].payments.captures[]` / `authorizations[]`).
public struct OrderTransaction: JSONModel, Equatable {
    /// The capture's or authorization's id: an authorization's is what
    /// `northstar.captureAuthorization` takes.
    public var id: OrdersV2ID
    /// Which of the two it is.
    public var kind: OrderIntent
    /// `COMPLETED` for a capture; for an authorization `CREATED`, then `PARTIALLY_CAPTURED` or
    /// `CAPTURED` as it is captured.
    public var status: String
    /// The amount, the order's total (every purchase unit's).
    public var amount: OrderMoney
    /// Until when an authorization can be captured (Orders v2 `expiration_time`); absent for a
    /// capture.
    public var expiresAt: Date?
}
