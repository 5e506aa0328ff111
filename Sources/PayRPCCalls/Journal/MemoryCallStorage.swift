import PayRPCSync

/// The journal of a gateway that is the only one of its store: each profile's last
/// ``CallJournalSettings/maxEntries`` entries in the gateway's memory (gone when it stops), kept
/// as they were handed over, a read's calls as one chunk, and read (parsed, masked) the first time
/// a query needs them.
///
/// Keeping a chunk is one append and a retain, whatever its number of calls: the request path
/// hands one over per read. The bound drops whole items from the front, and part of the oldest
/// (``Segment/skip``).
final class MemoryCallStorage: CallStorage {
    /// An item and where its entries sit in the profile's journal.
    private struct Segment {
        /// The position of its first entry.
        let first: UInt64
        /// Its first entries the bound let go.
        var skip = 0
        var item: CallJournalItem
    }

    /// Every profile's journal, and the last one found (a read's chunks come from one profile
    /// after another of the same: comparing its name costs less than hashing it).
    private struct Journals {
        var byProfile: [String: Journal] = [:]
        var last: (profile: String, journal: Journal)?

        mutating func journal(_ profile: String) -> Journal {
            if let last, last.profile == profile { return last.journal }
            let journal: Journal
            if let found = byProfile[profile] {
                journal = found
            } else {
                journal = Journal()
                byProfile[profile] = journal
            }
            last = (profile, journal)
            return journal
        }
    }

    /// One profile's journal (a class: found once per item, changed in place).
    private final class Journal {
        var segments: [Segment] = []
        /// Where the live segments start.
        var head = 0
        var live = 0
        var nextPosition: UInt64 = 1
        var dropped = 0
    }

    private let journals = Lock<Journals>(Journals())
    private let maxEntries: Int
    /// Told which profile's journal grew (the waits).
    private let grew: @Sendable (String) -> Void

    init(maxEntries: Int, grew: @escaping @Sendable (String) -> Void) {
        self.maxEntries = maxEntries
        self.grew = grew
    }

    func add(_ item: CallJournalItem, profile: String) {
        let maxEntries = maxEntries
        journals.withLock { journals in
            let journal = journals.journal(profile)
            let count = item.count
            journal.segments.append(Segment(first: journal.nextPosition, item: item))
            journal.nextPosition += UInt64(count)
            journal.live += count
            while journal.live > maxEntries {
                let oldest = journal.segments[journal.head]
                let remaining = oldest.item.count - oldest.skip
                let excess = journal.live - maxEntries
                if remaining <= excess {
                    journal.segments[journal.head].item = .dropped
                    journal.head += 1
                    journal.live -= remaining
                    journal.dropped += remaining
                } else {
                    journal.segments[journal.head].skip += excess
                    journal.live -= excess
                    journal.dropped += excess
                }
            }
            if journal.head > 64, journal.head * 2 > journal.segments.count {
                journal.segments.removeFirst(journal.head)
                journal.head = 0
            }
        }
        grew(profile)
    }

    func snapshot(profile: String, reader: CallEntryReader) async throws -> CallSnapshot {
        guard
            let (segments, dropped) = journals.withLock({ journals in
                journals.byProfile[profile].map { (Array($0.segments[$0.head...]), $0.dropped) }
            })
        else { return CallSnapshot(entries: [], dropped: 0) }
        var entries: [(position: String, arrived: ArrivedEntry)] = []
        var read: [UInt64: [ArrivedEntry]] = [:]
        for segment in segments {
            let all = reader.entries(segment.item)
            if case .chunk = segment.item { read[segment.first] = all }
            for (index, entry) in all.enumerated().dropFirst(segment.skip) {
                // Cursors compare as text: positions are written with a fixed width.
                entries.append((SharedCallStorage.padded(segment.first + UInt64(index), 12), entry))
            }
        }
        // What was read is kept read (parsed and masked once).
        if !read.isEmpty {
            journals.withLock { journals in
                guard let journal = journals.byProfile[profile] else { return }
                for index in journal.segments.indices.dropFirst(journal.head) {
                    if let entries = read[journal.segments[index].first] { journal.segments[index].item = .entries(entries) }
                }
            }
        }
        return CallSnapshot(entries: entries, dropped: dropped)
    }

    func clear(profile: String) async throws -> Int {
        journals.withLock { journals in
            guard let journal = journals.byProfile[profile] else { return 0 }
            let count = journal.live
            journal.segments = []
            journal.head = 0
            journal.live = 0
            journal.dropped = 0
            return count
        }
    }

    func run(reader: @escaping @Sendable () -> CallEntryReader) async {}
}
