import PayRPCJSON
import PayRPCSchema

/// A way to pay (*kanał płatności*, "payment channel"), from the sandbox's catalogue.
public struct PaymentChannel: JSONModel, Equatable {
    /// Dotpay's channel id.
    /// - Minimum: 1
    public var id: Int
    /// The name shown to the buyer.
    public var name: String
    /// The channel's group (`cards`, `transfers`, `blik`, `wallets`, `cash`).
    public var group: String
    /// The channel's logo.
    /// - Format: uri
    public var logo: String
    /// Whether the channel takes payments now (*online*): an offline one books them later.
    public var online: Bool
    /// The currencies it takes.
    public var currencies: [String]
    /// The smallest amount it takes.
    public var minAmount: Amount?
    /// The largest amount it takes.
    public var maxAmount: Amount?
}
