#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore

/// One thing the journal was handed, as it keeps it until it is read: calls still as the engine
/// copied them (a ``CallChunk``), a notification or an exchange as it was sent, or entries already
/// read (masked). A word and a tag: what is big is behind a reference, so keeping one costs a
/// retain.
enum CallJournalItem: Sendable {
    case chunk(CallChunk)
    indirect case push(PushRecord)
    indirect case exchange(HTTPExchangeRecord, id: String, sandboxStart: Date)
    indirect case entries([ArrivedEntry])
    /// What the bound let go (kept as a tag: an empty `entries` would allocate its box).
    case dropped

    /// How many entries it holds.
    var count: Int {
        switch self {
        case .chunk(let chunk): chunk.count
        case .push, .exchange: 1
        case .entries(let entries): entries.count
        case .dropped: 0
        }
    }
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
