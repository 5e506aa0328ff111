#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON

/// A document of a service's outbox: something a profile owes a remote party (a journal entry for
/// the Web API, a URLC notification for the shop), written in the transaction of what it reports
/// and kept until the other side has it. What ``Outbox`` and ``OutboxDelivery`` need to know of it.
///
/// Its documents are kept in its ``KeyedDocument/namespace`` (`journal.entries`, `dotpay.urlc`).
public protocol OutboxItem: KeyedDocument, Sendable {
    /// The item's key in the namespace: its id, the same on every try and after a restart.
    var outboxKey: String { get }
    /// When it was written, on the profile's sandbox clock (the outbox goes oldest first).
    var createdAt: Date { get }
    /// Whether the other side has it (it is never sent again).
    var isDelivered: Bool { get }
}
