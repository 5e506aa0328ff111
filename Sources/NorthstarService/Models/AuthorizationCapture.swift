#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A capture of an authorization (Payments v2 `capture`): what `northstar.captureAuthorization`
/// answers, and the answer to the document's "What is the format of the capture / authorization
/// response".
public struct AuthorizationCapture: JSONModel, Equatable {
    /// The capture's id.
    public var captureID: OrdersV2ID
    /// The authorization captured.
    public var authorizationID: OrdersV2ID
    /// The order the authorization belongs to (from the answer's related ids over HTTP, when the
    /// API gives them).
    public var orderID: OrdersV2ID?
    /// `COMPLETED` (Payments v2 also knows `PENDING`, `DECLINED`, ...).
    public var status: String
    /// The amount captured.
    public var amount: OrderMoney
    /// Whether the authorization is closed by this capture.
    public var finalCapture: Bool
    /// The merchant's invoice number, when given.
    public var invoiceId: String?
    /// The capture's links (`self`, `refund`, `up` to the authorization).
    public var links: [LinkDescription]
    /// When the capture was made, on the profile's sandbox clock.
    public var createTime: Date
    /// When it last changed.
    public var updateTime: Date
}
