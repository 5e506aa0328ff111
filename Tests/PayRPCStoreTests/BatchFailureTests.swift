import Foundation
import PayRPCJSON
@testable import PayRPCStore
@testable import PayRPCSQLite
import Testing
import GRDB
import PayRPCTestSupport

@Suite("A failing write fails only its own caller")
struct BatchFailureTests {
    struct Broken: Error {}

    @Test(
        "a write that loses the whole transaction fails alone; the rest of its batch is run again and commits",
        .onThreadOfItsOwn)
    func lostTransaction() async throws {
        try await withStore { store, _ in
            // Hold the writer so that the next writes queue up into one batch.
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            async let held: Void = store.update(profile: "p", namespace: "n", key: "holder") { _ in
                holding.signal()
                _ = release.wait(timeout: .now() + 120)
                return (1, ())
            }
            #expect(await waitOnThread(holding))
            let commitsBefore = store.statistics.commits

            async let outcomes: [Int: Bool] = withTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<11 {
                    group.addTask {
                        do {
                            if index == 5 {
                                // Ends the batch's transaction behind the committer's back, as
                                // SQLite does on a full disk or an I/O error.
                                _ = try await store.committer.write("broken") { db in
                                    try db.execute(sql: "ROLLBACK")
                                    throw Broken()
                                }
                            } else {
                                try await store.put(profile: "p", namespace: "n", key: "k\(index)", value: .int(index))
                            }
                            return (index, true)
                        } catch {
                            return (index, false)
                        }
                    }
                }
                var outcomes: [Int: Bool] = [:]
                for await (index, succeeded) in group { outcomes[index] = succeeded }
                return outcomes
            }
            let deadline = Date().addingTimeInterval(10)
            while store.committer.pendingCount < 11, Date() < deadline { await Task.yield() }
            #expect(store.committer.pendingCount == 11)
            release.signal()
            try await held
            let results = await outcomes

            #expect(results[5] == false)
            #expect(results.filter { $0.key != 5 }.values.allSatisfy { $0 })
            let keys = try await store.list(profile: "p", namespace: "n", keyPrefix: "k").map(\.key)
            #expect(keys.count == 10)
            #expect(!keys.contains("k5"))
            #expect(store.statistics.failedWrites == 1)
            // The held update's commit, then the one batch of ten.
            #expect(store.statistics.commits - commitsBefore == 2)
        }
    }
}
