import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox only: creates an order the way a merchant's server would (`POST /v2/checkout/orders`
/// with its own credentials), to be executed with `northstar.executeOrder {orderID, card}`.
///
/// The order is `CREATED` and expires `orderLifetimeSeconds` later on the profile's sandbox
/// clock; its id comes from the profile's seeded stream.
public enum SandboxCreateOrder: NorthstarMethod {
    public static let name = "sandbox.northstar.createOrder"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The order.
    public struct Params: JSONModel, Equatable {
        /// Capture at execution, or authorize for a later capture.
        public var intent: OrderIntent
        /// The purchase units, one to ten. The API's name; the SDK's (`purchaseUnitList`, as
        /// `OrderRequest` spells it) is accepted too.
        /// - Alias: purchaseUnitList (SDK)
        /// - MinItems: 1
        /// - MaxItems: 10
        public var purchaseUnits: [PurchaseUnit]
    }

    public typealias Result = OrderResponse
    public static let errors = [NorthstarErrorKind.unprocessable, .backendUnavailable, .notConfigured].map(\.descriptor)
}
