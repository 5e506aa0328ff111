import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSync
import Testing

@testable import PayRPCCalls

/// The in-memory journal: bounded per profile, oldest first out and counted, cleared per profile.
@Suite struct CallStorageTests {
    static func item(_ ids: String...) -> CallJournalItem {
        .entries(
            ids.map {
                ArrivedEntry(
                    entry: CallEntry(
                        id: $0, kind: .call, at: Date(timeIntervalSince1970: 0), wallAt: Date(timeIntervalSince1970: 0)),
                    arrival: Date(timeIntervalSince1970: 0))
            }
        )
    }

    static let reader = CallEntryReader(router: nil, gateway: nil, frozenAt: nil)

    @Test func theBoundKeepsTheNewestAndCountsWhatItDropped() async throws {
        let grown = Lock<[String]>([])
        let storage = MemoryCallStorage(maxEntries: 3, grew: { profile in grown.withLock { $0.append(profile) } })
        // Five in one item (a read's calls): the bound keeps its last three.
        storage.add(Self.item("1.1", "1.2", "1.3", "1.4", "1.5"), profile: "a")
        storage.add(Self.item("2.1"), profile: "b")
        let a = try await storage.snapshot(profile: "a", reader: Self.reader)
        #expect(a.entries.map(\.arrived.entry.id) == ["1.3", "1.4", "1.5"])
        #expect(a.dropped == 2)
        #expect(a.entries.map(\.position) == a.entries.map(\.position).sorted())
        storage.add(Self.item("1.6"), profile: "a")
        #expect(
            try await storage.snapshot(profile: "a", reader: Self.reader).entries.map(\.arrived.entry.id) == [
                "1.4", "1.5", "1.6",
            ])
        #expect(grown.withLock { $0 } == ["a", "b", "a"])

        #expect(try await storage.clear(profile: "a") == 3)
        #expect(try await storage.snapshot(profile: "a", reader: Self.reader).entries.isEmpty)
        #expect(try await storage.snapshot(profile: "a", reader: Self.reader).dropped == 0)
        #expect(try await storage.snapshot(profile: "b", reader: Self.reader).entries.map(\.arrived.entry.id) == ["2.1"])
        #expect(try await storage.snapshot(profile: "nobody", reader: Self.reader).entries.isEmpty)
    }

    @Test func aSignalFiredBeforeTheWaitIsNotLostAndATimeoutSaysSo() async {
        let signal = CallSignal()
        signal.fire()
        #expect(await signal.wait(atMost: .seconds(10)))
        #expect(await !signal.wait(atMost: .milliseconds(20)))
        let demand = CallDemand()
        let waiters = CallWaiters(demand: demand)
        #expect(!demand.isWanted)
        let armed = waiters.arm("a")
        // While a wait is armed, every connection's log hands its calls over at each read's end.
        #expect(demand.isWanted)
        async let woken = armed.wait(atMost: .seconds(10))
        waiters.grew("b")
        waiters.grew("a")
        #expect(await woken)
        waiters.disarm(armed, profile: "a")
        #expect(!demand.isWanted)
    }
}
