import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox only: voids an order that was not paid (what the merchant's server or PayPal does to
/// an abandoned order); it can no longer be executed (`ORDER_EXPIRED`, "the order was voided").
public enum SandboxVoidOrder: NorthstarMethod {
    public static let name = "sandbox.northstar.voidOrder"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The order.
    public struct Params: JSONModel, Equatable {
        /// The order's id.
        public var orderID: OrdersV2ID
    }

    public typealias Result = OrderResponse
    public static let errors = [NorthstarErrorKind.orderNotFound, .orderAlreadyCaptured, .orderAlreadyAuthorized, .unprocessable]
        .map(\.descriptor)
}
