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

/// A profile's journal as read at one moment.
struct CallSnapshot: Sendable {
    /// The entries, oldest first, each with the position that follows it.
    var entries: [(position: String, entry: CallEntry)]
    /// How many entries the bound let go since the journal was last cleared.
    var dropped: Int
}
