import PayRPCJSON
import PayRPCSchema

/// The order to create and pay at once (`OrderRequest` of the SDK, Orders v2 `order_request`).
public struct OrderRequest: JSONModel, Equatable {
    /// Must be `CAPTURE` when the order is created and executed in one call (the document: "The
    /// intent is required to be CAPTURE"); absent means `CAPTURE`.
    public var intent: OrderIntent?
    /// The purchase units (Orders v2 `purchase_units`), one to ten. The SDK's name; the API's
    /// (`purchaseUnits`, as `sandbox.northstar.createOrder` and answers spell it) is accepted too.
    /// - Alias: purchaseUnits (Orders v2 API)
    /// - MinItems: 1
    /// - MaxItems: 10
    public var purchaseUnitList: [PurchaseUnit]
}
