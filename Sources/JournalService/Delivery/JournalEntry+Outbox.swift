import PayRPCServiceKit

/// An entry is the outbox of its payment: delivered once both POSTs it needs were accepted.
extension JournalEntry: OutboxItem {
    /// The journal's entries (key: the entry id).
    public static var namespace: String { "journal.entries" }
    /// The entry id.
    public var outboxKey: String { entryId }
    /// Whether the Web API has the entry.
    public var isDelivered: Bool { delivery.status == .delivered }
}
