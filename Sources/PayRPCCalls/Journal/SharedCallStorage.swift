#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PayRPCCore
import PayRPCStore
import PayRPCSync

/// The journal of gateways that share a store: each gateway reads what it was handed into entries
/// (masked) and writes them in one transaction per flush (at most ``flushInterval`` after they
/// came, and before any query it answers), as one batch document per profile beside the
/// profile's index (``CallJournalIndex``). The transaction publishes the profile on the `calls`
/// channel, so every gateway's waits wake. A profile's journal is one journal whichever gateway
/// served each call: every query reads the store.
final class SharedCallStorage: CallStorage {
    /// How long an entry may wait before it is written (docs/calls.md: an entry is visible on
    /// every gateway within this and a commit).
    static let flushInterval: Duration = .milliseconds(100)
    static let namespace = "calls"
    static let indexKey = "m"
    static let channel = "calls"

    private let store: any StateStore
    private let maxEntries: Int
    private let mark: String
    private let logger: Logger
    private let grew: @Sendable (String) -> Void
    private let pending = Lock<[(profile: String, item: CallJournalItem)]>([])
    private let batchNumber = Lock<UInt64>(0)
    private let wake = CallSignal()

    init(store: any StateStore, maxEntries: Int, mark: String, logger: Logger, grew: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.maxEntries = maxEntries
        self.mark = mark
        self.logger = logger
        self.grew = grew
    }

    func add(_ item: CallJournalItem, profile: String) {
        pending.withLock { $0.append((profile, item)) }
        wake.fire()
    }

    func run(reader: @escaping @Sendable () -> CallEntryReader) async {
        let grew = grew
        let subscription = store.subscribe(Self.channel, as: CallJournalEvent.self) { event in grew(event.profile) }
        while !Task.isCancelled {
            _ = await wake.wait(atMost: Self.flushInterval)
            await flushLogging(reader())
        }
        await flushLogging(reader())
        subscription.cancel()
    }

    private func flushLogging(_ reader: CallEntryReader) async {
        do { try await flush(reader) } catch {
            logger.error("the call journal could not be written", metadata: ["error": .string("\(error)")])
        }
    }

    /// Writes what waits, one batch per profile, in one transaction.
    func flush(_ reader: CallEntryReader) async throws {
        let taken = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        guard !taken.isEmpty else { return }
        var byProfile: [String: [ArrivedEntry]] = [:]
        var order: [String] = []
        for (profile, item) in taken {
            if byProfile[profile] == nil { order.append(profile) }
            byProfile[profile, default: []].append(contentsOf: reader.entries(item))
        }
        let wall = UInt64(max(0, Date().timeIntervalSince1970 * 1e9))
        let number = batchNumber.withLock { number in
            number += 1
            return number
        }
        let key = "b" + Self.padded(wall, 20) + "-" + mark + "-" + Self.padded(number, 8)
        let (maxEntries, batches) = (maxEntries, order.map { ($0, byProfile[$0]!) })
        do {
            try await store.transaction("calls.flush") { transaction in
                for (profile, entries) in batches {
                    try Self.append(entries, key: key, profile: profile, maxEntries: maxEntries, in: transaction)
                    try transaction.publish(CallJournalEvent(profile: profile), on: Self.channel)
                }
            }
        } catch {
            // Kept for the next flush: an entry is not lost while the store is away.
            pending.withLock { pending in pending.insert(contentsOf: taken, at: 0) }
            throw error
        }
    }

    private static func append(
        _ arrived: [ArrivedEntry], key: String, profile: String, maxEntries: Int, in transaction: StoreTransaction
    ) throws {
        let entries = arrived.map(\.entry)
        var index =
            try transaction.get(CallJournalIndex.self, profile: profile, namespace: namespace, key: indexKey)
            ?? CallJournalIndex(batches: [], dropped: 0)
        try transaction.put(
            CallBatch(entries: entries, arrivals: arrived.map(\.arrival)), profile: profile, namespace: namespace, key: key)
        index.batches.append(CallBatchReference(key: key, count: entries.count))
        var excess = index.batches.reduce(0) { $0 + $1.count } - maxEntries
        while excess > 0, let oldest = index.batches.first {
            if oldest.count <= excess {
                try transaction.delete(profile: profile, namespace: namespace, key: oldest.key)
                index.batches.removeFirst()
                excess -= oldest.count
                index.dropped += oldest.count
            } else {
                var batch =
                    try transaction.get(CallBatch.self, profile: profile, namespace: namespace, key: oldest.key)
                    ?? CallBatch(entries: [])
                let cut = min(excess, batch.entries.count)
                batch.entries.removeFirst(cut)
                if var arrivals = batch.arrivals, arrivals.count >= cut {
                    arrivals.removeFirst(cut)
                    batch.arrivals = arrivals
                }
                try transaction.put(batch, profile: profile, namespace: namespace, key: oldest.key)
                index.batches[0].count = batch.entries.count
                index.dropped += excess
                excess = 0
            }
        }
        try transaction.put(index, profile: profile, namespace: namespace, key: indexKey)
    }

    func snapshot(profile: String, reader: CallEntryReader) async throws -> CallSnapshot {
        try await flush(reader)
        return try await store.read("calls.read") { documents in
            guard
                let index = try documents.get(
                    CallJournalIndex.self, profile: profile, namespace: Self.namespace, key: Self.indexKey)
            else { return CallSnapshot(entries: [], dropped: 0) }
            var entries: [(position: String, arrived: ArrivedEntry)] = []
            for reference in index.batches {
                guard
                    let batch = try documents.get(
                        CallBatch.self, profile: profile, namespace: Self.namespace, key: reference.key)
                else { continue }
                for (offset, entry) in batch.entries.enumerated() {
                    let arrival = batch.arrivals.flatMap { offset < $0.count ? $0[offset] : nil } ?? entry.wallAt
                    entries.append(
                        (reference.key + "." + Self.padded(UInt64(offset), 6), ArrivedEntry(entry: entry, arrival: arrival)))
                }
            }
            return CallSnapshot(entries: entries, dropped: index.dropped)
        }
    }

    func clear(profile: String) async throws -> Int {
        try await store.transaction("calls.clear") { transaction in
            guard
                let index = try transaction.get(
                    CallJournalIndex.self, profile: profile, namespace: Self.namespace, key: Self.indexKey)
            else { return 0 }
            for reference in index.batches {
                try transaction.delete(profile: profile, namespace: Self.namespace, key: reference.key)
            }
            try transaction.put(
                CallJournalIndex(batches: [], dropped: 0), profile: profile, namespace: Self.namespace, key: Self.indexKey)
            try transaction.publish(CallJournalEvent(profile: profile), on: Self.channel)
            return index.batches.reduce(0) { $0 + $1.count }
        }
    }

    static func padded(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
