import PayRPCSync

/// The journal of a gateway that is the only one of its store: each profile's last
/// ``CallJournalSettings/maxEntries`` entries in the gateway's memory (gone when it stops), kept
/// as they were handed over and read (parsed, masked) the first time a query needs them.
final class MemoryCallStorage: CallStorage {
    /// One profile's entries: a ring of the newest, each with its position.
    private struct Ring {
        var items: [(position: UInt64, item: CallJournalItem)] = []
        /// Where the oldest is, once the ring is full.
        var head = 0
        var nextPosition: UInt64 = 1
        var dropped = 0

        /// Oldest first.
        var ordered: [(position: UInt64, item: CallJournalItem)] {
            head == 0 ? items : Array(items[head...] + items[..<head])
        }
    }

    private let rings = Lock<[String: Ring]>([:])
    private let maxEntries: Int
    /// Told which profile's journal grew (the waits).
    private let grew: @Sendable (String) -> Void

    init(maxEntries: Int, grew: @escaping @Sendable (String) -> Void) {
        self.maxEntries = maxEntries
        self.grew = grew
    }

    func add(_ items: [CallJournalItem], profile: String) {
        let maxEntries = maxEntries
        rings.withLock { rings in
            var ring = rings.removeValue(forKey: profile) ?? Ring()
            for item in items {
                let position = ring.nextPosition
                ring.nextPosition += 1
                if ring.items.count < maxEntries {
                    ring.items.append((position, item))
                } else {
                    ring.items[ring.head] = (position, item)
                    ring.head = (ring.head + 1) % maxEntries
                    ring.dropped += 1
                }
            }
            rings[profile] = ring
        }
        grew(profile)
    }

    func snapshot(profile: String, reader: CallEntryReader) async throws -> CallSnapshot {
        guard let (ordered, dropped) = rings.withLock({ rings in rings[profile].map { ($0.ordered, $0.dropped) } }) else {
            return CallSnapshot(entries: [], dropped: 0)
        }
        var read: [UInt64: CallEntry] = [:]
        // Cursors compare as text: positions are written with a fixed width.
        let entries = ordered.map { position, item -> (position: String, entry: CallEntry) in
            if case .entry(let entry) = item { return (SharedCallStorage.padded(position, 12), entry) }
            let entry = reader.entry(item)
            read[position] = entry
            return (SharedCallStorage.padded(position, 12), entry)
        }
        // What was read is kept read (parsed and masked once).
        if !read.isEmpty {
            rings.withLock { rings in
                guard var ring = rings[profile] else { return }
                for index in ring.items.indices {
                    if let entry = read[ring.items[index].position] { ring.items[index].item = .entry(entry) }
                }
                rings[profile] = ring
            }
        }
        return CallSnapshot(entries: entries, dropped: dropped)
    }

    func clear(profile: String) async throws -> Int {
        rings.withLock { rings in
            guard var ring = rings[profile] else { return 0 }
            let count = ring.items.count
            ring.items = []
            ring.head = 0
            ring.dropped = 0
            rings[profile] = ring
            return count
        }
    }

    func run(reader: @escaping @Sendable () -> CallEntryReader) async {}
}
