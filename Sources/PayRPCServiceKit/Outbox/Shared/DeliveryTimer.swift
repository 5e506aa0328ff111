import PayRPCSchema

/// One try of an outbox delivery on a store that several gateways share, as it travels on the
/// store's events (``SharedDeliveries/channel``): armed (published in the transaction that writes
/// the item or records the try before it) or made (published in the transaction that records its
/// outcome). Its claim, in the store's idempotency claims, says which gateway makes it.
public struct DeliveryTimer: JSONModel, Equatable {
    /// The gateway that published the event (its own events come back to it and are passed over).
    public var origin: String
    /// The outbox's namespace (`journal.entries`, `dotpay.urlc`).
    public var outbox: String
    /// The item's profile.
    public var profile: String
    /// The item's key in the outbox.
    public var item: String
    /// The index of the try within the item's POST (0: the first try, 1: the first retry, ...).
    public var index: Int
    /// When it is due, in milliseconds since 1970 (real time: the backoff of a real network).
    public var dueAt: Int64
    /// The key of its claim, unique to this arming.
    public var claim: String
    /// Whether the event tells that the try was made (its outcome recorded) rather than armed.
    public var made: Bool

    /// A try armed or made.
    public init(
        origin: String, outbox: String, profile: String, item: String, index: Int, dueAt: Int64, claim: String,
        made: Bool = false
    ) {
        self.origin = origin
        self.outbox = outbox
        self.profile = profile
        self.item = item
        self.index = index
        self.dueAt = dueAt
        self.claim = claim
        self.made = made
    }
}
