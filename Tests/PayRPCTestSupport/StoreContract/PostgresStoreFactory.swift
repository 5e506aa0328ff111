import Foundation
import Logging
import PayRPCStore
import PayRPCPostgres

/// The PostgreSQL store for the ``StoreContract``: each store a new database on the process's
/// throw-away cluster (``PostgresTestCluster``), under one key.
///
/// A crash is every connection of the store dropped at once, as a killed process drops them (the
/// server rolls back what was not committed and releases the instance's presence lock), then a new
/// store on the same database, as the next process opens it.
public struct PostgresStoreFactory: StateStoreFactory {
    /// The key every store of the factory is opened with.
    let key: [UInt8]

    /// The factory.
    public init() {
        key = (0..<32).map { _ in UInt8.random(in: 0...255) }
    }

    public func makeStore(maximumBytes: Int64?) async throws -> PostgresStateStore {
        let cluster = try await PostgresTestCluster.shared()
        return try open(try await cluster.createDatabase(prefix: "payrpc_contract"), maximumBytes: maximumBytes)
    }

    public func reopenAfterCrash(_ store: PostgresStateStore) async throws -> PostgresStateStore {
        let application = store.applicationName
        store.abandonForCrashTest()
        // Until the server has ended the dead instance's sessions, its presence lock stands.
        try await PostgresTestCluster.shared().psql(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name LIKE '\(application)%'")
        return try open(store.url.uri, maximumBytes: nil)
    }

    public func discard(_ store: PostgresStateStore) async throws {
        try await store.close()
        try await PostgresTestCluster.shared().dropDatabase(store.url.database)
    }

    /// Another instance on `store`'s database, under the same key (as a second gateway opens it).
    public func openAnother(_ store: PostgresStateStore) throws -> PostgresStateStore {
        try open(store.url.uri, maximumBytes: nil)
    }

    /// A store on the database at `url` (which may lead through a test's proxy), under the
    /// factory's key.
    public func open(
        _ url: String, maximumBytes: Int64?, attempts: Int = PostgresStateStore.maximumAttempts
    ) throws -> PostgresStateStore {
        guard let url = PostgresURL(url) else { throw PostgresTestClusterError("not a PostgreSQL URL: \(url)") }
        var configuration = StoreConfiguration()
        configuration.maximumBytes = maximumBytes
        return try PostgresStateStore(
            options: PostgresStoreOptions(
                url: url, key: key, connections: 4,
                applicationName: "payrpc-contract-\(UUID().uuidString.prefix(8))", attempts: attempts),
            configuration: configuration, logger: Logger(label: "payrpc.contract") { _ in SwiftLogNoOpLogHandler() })
    }
}
