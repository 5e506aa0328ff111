import Foundation
import PayRPCJSON
import PayRPCStore
import PayRPCSync
import PayRPCTestSupport
import Testing
import PayRPCPostgres
import PayRPCSQLite

/// A connection that breaks around a transaction's `COMMIT`: the store asks the server what
/// became of the transaction. Committed (the answer was lost after the commit), the call is a
/// success, not a `-32009` that a retry would run a second time; rolled back (the `COMMIT` never
/// arrived), it runs again. The break is made by a real proxy between the store and a real server
/// (`Support/pg_commit_cutter.py`), keyed on a document's key.
@Suite("PostgreSQL store: a commit whose answer is lost")
struct LostCommitTests {
    /// A new database, the cutting proxy in front of the test cluster, and a store that reaches
    /// the database through the proxy.
    struct Cut {
        let cluster: PostgresTestCluster
        let factory: PostgresStoreFactory
        let database: String
        let cutter: PythonBackend
        let store: PostgresStateStore

        init() async throws {
            cluster = try await PostgresTestCluster.shared()
            factory = PostgresStoreFactory()
            let migrated = try factory.open(try await cluster.createDatabase(prefix: "payrpc_lost_commit"), maximumBytes: nil)
            database = migrated.url.database
            try await migrated.close()
            let script = try #require(Bundle.module.path(forResource: "pg_commit_cutter", ofType: "py"))
            cutter = try await PythonBackend(script: script, arguments: [String(cluster.port)])
            store = try factory.open(
                "postgresql://postgres@127.0.0.1:\(cutter.port)/\(database)?sslmode=disable", maximumBytes: nil)
        }

        /// The document at `key`, read past the proxy.
        func stored(_ key: String) async throws -> JSONValue? {
            let reader = try factory.open(cluster.url(database: database), maximumBytes: nil)
            let value = try await reader.read("check") { try $0.get(JSONValue.self, profile: "p", namespace: "test", key: key) }
            try await reader.close()
            return value
        }

        /// Closes the store and drops the database.
        func finish() async throws {
            try await store.close()
            await cluster.dropDatabase(database)
        }
    }

    @Test func aCommittedTransactionWhoseAnswerIsLostSucceedsOnceAndIsKept() async throws {
        let cut = try await Cut()
        let runs = Lock(0)
        // The proxy cuts the connection just before the COMMIT's answer (the key is its marker).
        let answer = try await cut.store.transaction("lost commit") { transaction -> String in
            runs.withLock { $0 += 1 }
            try transaction.put(JSONValue.string("kept"), profile: "p", namespace: "test", key: "cut-after-commit")
            return "committed"
        }
        #expect(answer == "committed")
        #expect(runs.withLock { $0 } == 1)
        #expect(try await cut.stored("cut-after-commit") == .string("kept"))
        // The proxy did cut a connection: the store's next transaction runs on a new one.
        let next = try await cut.store.transaction("after") { transaction -> Int in
            try transaction.put(JSONValue.string("after"), profile: "p", namespace: "test", key: "next")
            return 1
        }
        #expect(next == 1)
        try await cut.finish()
    }

    @Test func aCommitTheServerNeverGotRunsAgainAndIsKeptOnce() async throws {
        let cut = try await Cut()
        let runs = Lock(0)
        // The proxy holds the COMMIT back and cuts the connection once the transaction's
        // identifier has reached the store: the server rolls back, and says so when asked.
        let answer = try await cut.store.transaction("lost commit") { transaction -> Int in
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            try transaction.put(JSONValue.string("run \(run)"), profile: "p", namespace: "test", key: "cut-before-commit")
            return run
        }
        #expect(answer == 2)
        #expect(try await cut.stored("cut-before-commit") == .string("run 2"))
        try await cut.finish()
    }
}
