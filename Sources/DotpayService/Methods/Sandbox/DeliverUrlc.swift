import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: sends the profile's URLC notifications that are not delivered now, and answers once
/// each was tried (what Dotpay's own retries would do later; the journal's `sync`).
///
/// A payment that completes later and whose time has come on the profile's clock completes first,
/// with its notification.
public enum DeliverUrlc: DotpayMethod {
    public static let name = "sandbox.dotpay.deliverUrlc"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]
    public typealias Params = NoParams

    /// What was tried.
    public struct Result: JSONModel, Equatable {
        /// How many notifications were tried.
        public var attempted: Int
        /// How many of them the shop accepted.
        public var delivered: Int
        /// How many still wait.
        public var waiting: Int
    }

    public static var notifications: [any RPCNotification.Type] { [UrlcDeliveryFailed.self] }
}
