import PayRPCStore
import PayRPCTestSupport
import PayRPCPostgres
import Testing
#if canImport(Glibc)
import Glibc
#endif
import PayRPCSQLite

/// Eight transactions at once on one profile's one document, through two instances of one
/// PostgreSQL store (four connections each, so all eight run together): after a first conflict a
/// transaction takes its profiles' locks (`PGProfileLocks`), so the seven that lost run one after
/// another on their second attempt. Each store here has only 5 attempts: without the locks, the
/// losers keep conflicting with each other, one winner per round, and three of the eight run out.
@Suite("PostgreSQL store: one hot row")
struct HotRowTests {
    @Test func transactionsContendingForOneRowAllCommitWithinFiveAttempts() async throws {
        let factory = PostgresStoreFactory()
        let first = try await factory.makeStore(maximumBytes: nil)
        let a = try factory.open(first.url.uri, maximumBytes: nil, attempts: 5)
        let b = try factory.open(first.url.uri, maximumBytes: nil, attempts: 5)
        // Every connection of both stores opened first, so that the eight start together.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                let store: any StateStore = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    _ = try await store.read("warm up") { reader in
                        usleep(20_000)
                        return try reader.get(Int.self, profile: "hot", namespace: "test", key: "counter")
                    }
                }
            }
            try await group.waitForAll()
        }
        let failures = await withTaskGroup(of: String?.self) { group -> [String] in
            for index in 0..<8 {
                let store: any StateStore = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    do {
                        try await store.transaction("count") { transaction in
                            try transaction.update(Int.self, profile: "hot", namespace: "test", key: "counter", default: 0) {
                                // Holds the row read for 5 ms (on the store's thread), so that
                                // the eight overlap: the contention under test, not a wait.
                                usleep(5_000)
                                $0 += 1
                            }
                        }
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures == [])
        let count = try await a.read("check") { try $0.get(Int.self, profile: "hot", namespace: "test", key: "counter") }
        #expect(count == 8)
        try await a.close()
        try await b.close()
        try await factory.discard(first)
    }
}
