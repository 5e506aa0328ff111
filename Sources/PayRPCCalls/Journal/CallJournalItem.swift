#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore

/// One thing the journal was handed, as it keeps it until it is read: a call still as the engine
/// copied it (a record of a ``CallChunk``), a notification or an exchange as it was sent, or an
/// entry already read (masked).
enum CallJournalItem: Sendable {
    case call(CallChunk, offset: Int)
    case push(PushRecord)
    case exchange(HTTPExchangeRecord, id: String, sandboxStart: Date)
    case entry(CallEntry)
}

/// A notification as the journal was handed it.
struct PushRecord: Sendable {
    let id: String
    let name: String
    let params: [UInt8]
    let connection: UInt64
    let transport: TransportKind
    let client: String?
    let cause: String?
    let work: String?
    let wallAt: Date
    let sandboxAt: Date
}
