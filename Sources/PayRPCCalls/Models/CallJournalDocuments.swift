#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A profile's journal on a store gateways share, as its index document (`calls/m`): its batches
/// in order and how many entries its bound let go.
/// - SchemaName: CallJournalIndex
public struct CallJournalIndex: JSONModel, Equatable {
    /// The batches, oldest first.
    public var batches: [CallBatchReference]
    /// How many entries the bound let go since the journal was last cleared.
    public var dropped: Int
}

/// One batch in a journal's index.
/// - SchemaName: CallBatchReference
public struct CallBatchReference: JSONModel, Equatable {
    /// Its document's key (`b…`: the wall time it was written, in nanoseconds, then the gateway's mark).
    public var key: String
    /// How many entries it holds.
    public var count: Int
}

/// The entries one gateway flushed in one transaction (`calls/b…`), masked.
/// - SchemaName: CallBatch
public struct CallBatch: JSONModel, Equatable {
    /// Oldest first.
    public var entries: [CallEntry]
    /// When each entry really arrived (the wall clock, even under `--frozen-clock`): what orders
    /// entries whose sandbox times are equal.
    public var arrivals: [Date]?
}

/// The event a flush publishes (channel `calls`): the profile whose journal grew or was cleared.
/// - SchemaName: CallJournalEvent
public struct CallJournalEvent: JSONModel, Equatable {
    /// The profile.
    public var profile: String
}
