import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox only: an order as the merchant's server would read it (`GET /v2/checkout/orders/{id}`).
public enum SandboxGetOrder: NorthstarMethod {
    public static let name = "sandbox.northstar.getOrder"
    public static let traits: MethodTraits = [.sandboxOnly]

    /// The order.
    public struct Params: JSONModel, Equatable {
        /// The order's id.
        public var orderID: OrdersV2ID
    }

    public typealias Result = OrderResponse
    public static let errors = [NorthstarErrorKind.orderNotFound, .backendUnavailable, .notConfigured].map(\.descriptor)
}
