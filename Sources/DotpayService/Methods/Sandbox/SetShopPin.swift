import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: the shop's PIN (from the Dotpay panel), which signs its URLC notifications.
///
/// Kept only sealed under the server key, never logged or answered. Notifications that waited for
/// a PIN (`noPin`) are sent at once.
public enum SetShopPin: DotpayMethod {
    public static let name = "sandbox.dotpay.setShopPin"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The PIN.
    public struct Params: JSONModel, Equatable {
        /// The shop's PIN.
        /// - MinLength: 1
        /// - MaxLength: 64
        /// - Sensitive
        public var pin: String
    }

    public typealias Result = NoResult
    public static var notifications: [any RPCNotification.Type] { [UrlcDeliveryFailed.self] }
}
