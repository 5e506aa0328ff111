import Foundation
import PayRPCJSON
import PayRPCStore
import PayRPCSQLite
import Testing
import PayRPCTestSupport

@Suite("Group commit and atomic updates under concurrency")
struct GroupCommitTests {
    @Test("100 concurrent increments of one key give exactly 100, each seeing a distinct value")
    func concurrentIncrements() async throws {
        try await withStore { store, _ in
            let seen = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await store.update(profile: "p", namespace: "pin.attempts", key: "user") { current in
                            let next = (current.flatMap { Int($0.numberText ?? "") } ?? 0) + 1
                            return (.int(next), next)
                        }
                    }
                }
                var seen: [Int] = []
                for try await value in group { seen.append(value) }
                return seen
            }
            #expect(seen.sorted() == Array(1...100))
            #expect(try await store.get(profile: "p", namespace: "pin.attempts", key: "user") == 100)
        }
    }

    @Test("200 concurrent puts are committed in far fewer than 200 transactions")
    func groupCommit() async throws {
        try await withStore { store, _ in
            let before = store.statistics
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await store.put(profile: "p", namespace: "history", key: "payment-\(index)", value: .int(index))
                    }
                }
                try await group.waitForAll()
            }
            let after = store.statistics
            #expect(after.writes - before.writes == 200)
            #expect(after.failedWrites == before.failedWrites)
            #expect(after.commits - before.commits < 50, "commits: \(after.commits - before.commits)")
            #expect(after.commits > before.commits)
            #expect(try await store.list(profile: "p", namespace: "history", keyPrefix: nil).count == 200)
        }
    }

    @Test("every acknowledged write is in the file after a reopen")
    func acknowledgedWritesSurviveReopen() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openStore(directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    try await store.put(profile: "p", namespace: "journal", key: "\(1000 + index)", value: .int(index))
                }
            }
            try await group.waitForAll()
        }
        try await store.close()
        let reopened = try openStore(directory)
        let keys = try await reopened.list(profile: "p", namespace: "journal", keyPrefix: nil).map(\.key)
        #expect(keys == (0..<100).map { "\(1000 + $0)" })
        #expect(try await reopened.integrityCheck())
        try await reopened.close()
    }
}

extension JSONValue {
    /// The text of a number value.
    var numberText: String? {
        if case .number(let text) = self { return text }
        return nil
    }
}
