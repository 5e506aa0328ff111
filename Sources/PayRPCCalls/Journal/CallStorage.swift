#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a journal keeps its profiles' entries: in the gateway's memory (``MemoryCallStorage``,
/// the embedded store) or in a store gateways share (``SharedCallStorage``).
protocol CallStorage: Sendable {
    /// Keeps `item` in `profile`'s journal. Called on the thread that did the work (the loop's,
    /// once per read, for calls); quick.
    func add(_ item: CallJournalItem, profile: String)
    /// The profile's entries in journal order, each with its position (a cursor after it).
    /// - Throws: a store error (shared storage).
    func snapshot(profile: String, reader: CallEntryReader) async throws -> CallSnapshot
    /// Empties the profile's journal; returns how many entries it held.
    /// - Throws: a store error (shared storage).
    func clear(profile: String) async throws -> Int
    /// The storage's background work (a shared storage's flushes), until the task is cancelled.
    func run(reader: @escaping @Sendable () -> CallEntryReader) async
}

/// An entry and when it really arrived (the wall clock, even under `--frozen-clock`): what orders
/// entries whose sandbox times are equal.
struct ArrivedEntry: Sendable {
    var entry: CallEntry
    var arrival: Date
}

/// A profile's journal as read at one moment.
struct CallSnapshot: Sendable {
    /// The entries in the order they were journalled (a connection's calls are handed over a
    /// batch at a time), each with its position: a cursor after it.
    var entries: [(position: String, arrived: ArrivedEntry)]
    /// How many entries the bound let go since the journal was last cleared.
    var dropped: Int

    /// The entries in the order they arrived.
    var inArrivalOrder: [CallEntry] { Self.arrivalOrder(entries.map(\.arrived)) }

    /// `entries` in the order they arrived: by the sandbox time they arrived at (the clock only
    /// moves forward), then the real time, then as given.
    static func arrivalOrder(_ entries: [ArrivedEntry]) -> [CallEntry] {
        entries.enumerated().sorted { left, right in
            (left.element.entry.at, left.element.arrival, left.offset)
                < (right.element.entry.at, right.element.arrival, right.offset)
        }.map(\.element.entry)
    }
}
