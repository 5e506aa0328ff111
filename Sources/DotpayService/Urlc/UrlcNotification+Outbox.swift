import PayRPCServiceKit

/// The URLC notifications are Dotpay's outbox: delivered once the shop answered `OK`.
extension UrlcNotification: OutboxItem {
    /// The notification id.
    public var outboxKey: String { notificationId }
    /// Whether the shop has it.
    public var isDelivered: Bool { status == .delivered }
}
