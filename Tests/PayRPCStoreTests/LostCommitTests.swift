import Foundation
import PayRPCJSON
import PayRPCStore
import PayRPCSync
import PayRPCTestSupport
import Testing

/// A connection that breaks after the server committed a transaction but before its answer
/// arrived: the store asks the server what became of the transaction, and a committed call is a
/// success, not a `-32009` that a retry would run a second time. The break is made by a real
/// proxy between the store and a real server (`Support/pg_commit_cutter.py`).
@Suite("PostgreSQL store: a commit whose answer is lost")
struct LostCommitTests {
    @Test func aCommittedTransactionWhoseAnswerIsLostSucceedsOnceAndIsKept() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let factory = PostgresStoreFactory()
        let direct = try factory.open(
            try await cluster.createDatabase(prefix: "payrpc_lost_commit"), maximumBytes: nil)
        let database = direct.url.database
        let script = try #require(Bundle.module.path(forResource: "pg_commit_cutter", ofType: "py"))
        let cutter = try await PythonBackend(script: script, arguments: [String(cluster.port)])
        try await direct.close()
        let store = try factory.open(
            "postgresql://postgres@127.0.0.1:\(cutter.port)/\(database)?sslmode=disable", maximumBytes: nil)
        let runs = Lock(0)
        // The proxy cuts the connection just before the COMMIT's answer (the key is its marker).
        let answer = try await store.transaction("lost commit") { transaction -> String in
            runs.withLock { $0 += 1 }
            try transaction.put(JSONValue.string("kept"), profile: "p", namespace: "test", key: "cut-after-commit")
            return "committed"
        }
        #expect(answer == "committed")
        #expect(runs.withLock { $0 } == 1)
        // Read past the proxy: the write is there, once.
        let reader = try factory.open(cluster.url(database: database), maximumBytes: nil)
        let stored = try await reader.read("check") { reader in
            try reader.get(JSONValue.self, profile: "p", namespace: "test", key: "cut-after-commit")
        }
        #expect(stored == .string("kept"))
        // The proxy did cut a connection: the store's next transaction runs on a new one.
        let next = try await store.transaction("after") { transaction -> Int in
            try transaction.put(JSONValue.string("after"), profile: "p", namespace: "test", key: "next")
            return 1
        }
        #expect(next == 1)
        try await store.close()
        try await reader.close()
        await cluster.dropDatabase(database)
    }

    @Test func aCommitTheServerNeverGotRunsAgainAndIsKeptOnce() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let factory = PostgresStoreFactory()
        let direct = try factory.open(
            try await cluster.createDatabase(prefix: "payrpc_lost_commit"), maximumBytes: nil)
        let database = direct.url.database
        try await direct.close()
        let script = try #require(Bundle.module.path(forResource: "pg_commit_cutter", ofType: "py"))
        let cutter = try await PythonBackend(script: script, arguments: [String(cluster.port)])
        let store = try factory.open(
            "postgresql://postgres@127.0.0.1:\(cutter.port)/\(database)?sslmode=disable", maximumBytes: nil)
        let runs = Lock(0)
        // The proxy holds the COMMIT back and cuts the connection once the transaction's
        // identifier has reached the store: the server rolls back, and says so when asked.
        let answer = try await store.transaction("lost commit") { transaction -> Int in
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            try transaction.put(JSONValue.string("run \(run)"), profile: "p", namespace: "test", key: "cut-before-commit")
            return run
        }
        #expect(answer == 2)
        let reader = try factory.open(cluster.url(database: database), maximumBytes: nil)
        let stored = try await reader.read("check") { reader in
            try reader.get(JSONValue.self, profile: "p", namespace: "test", key: "cut-before-commit")
        }
        #expect(stored == .string("run 2"))
        try await store.close()
        try await reader.close()
        await cluster.dropDatabase(database)
    }
}
