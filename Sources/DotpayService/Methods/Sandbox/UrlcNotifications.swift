import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: the profile's URLC notifications, oldest first: what was (or will be) posted to each
/// payment's `urlc`, and how its delivery went.
public enum UrlcNotifications: DotpayMethod {
    public static let name = "sandbox.dotpay.urlcNotifications"
    public static let traits: MethodTraits = [.sandboxOnly]

    /// Which notifications.
    public struct Params: JSONModel, Equatable {
        /// Only those about this payment.
        public var paymentId: OperationNumber?
    }

    public typealias Result = [UrlcNotification]
}
