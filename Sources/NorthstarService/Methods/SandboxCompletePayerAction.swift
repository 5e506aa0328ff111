import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox only: the buyer completes 3-D Secure at the `payer-action` link; the order becomes
/// `APPROVED` with its card, ready for `northstar.executeOrder {orderID}`.
public enum SandboxCompletePayerAction: NorthstarMethod {
    public static let name = "sandbox.northstar.completePayerAction"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The order.
    public struct Params: JSONModel, Equatable {
        /// The order's id.
        public var orderID: OrdersV2ID
    }

    public typealias Result = OrderResponse
    public static let errors = [NorthstarErrorKind.orderNotFound, .unprocessable, .backendUnavailable, .notConfigured].map(
        \.descriptor)
}
