import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// Spawned gateways that share one PostgreSQL database on the throw-away cluster the tests start
/// (`serve --store postgresql://…`): the one way every cross-instance test makes its database and
/// starts its gateways on it.
enum SharedDatabase {
    /// A store key, as `openssl rand -hex 32` makes one.
    static let key = String(repeating: "5a17c0de", count: 8)

    /// A new database on the cluster (the tests' shared one unless given), migrated through the
    /// binary (`data migrate --store`); returns its URL.
    static func migrated(on cluster: PostgresTestCluster? = nil) async throws -> String {
        let url = try await (cluster == nil ? PostgresTestCluster.shared() : cluster!).createDatabase(prefix: "payrpc_e2e")
        let migrate = try await ChildRun.run(
            SpawnedServer.binary, ["data", "migrate", "--store", url],
            environment: ["PAYRPC_STORE_KEY": key])
        #expect(migrate.status == 0)
        #expect(migrate.output.hasPrefix("v1 "), "data migrate printed \(migrate.output) \(migrate.errors)")
        return url
    }

    /// A gateway on the database at `url`: `serve` with `arguments` (stdio unless they say
    /// otherwise) and the store, given `key` (nil: none).
    static func gateway(_ url: String, _ arguments: [String] = ["--stdio"], key: String? = key) async throws
        -> SpawnedServer
    {
        try await SpawnedServer(["serve"] + arguments + ["--store", url], environment: ["PAYRPC_STORE_KEY": key])
    }

    /// `count` gateways on one new database, started with `arguments`.
    static func gateways(_ count: Int, _ arguments: [String] = ["--stdio"]) async throws -> (
        url: String, gateways: [SpawnedServer]
    ) {
        let url = try await migrated()
        var gateways: [SpawnedServer] = []
        for _ in 0..<count { gateways.append(try await gateway(url, arguments)) }
        return (url, gateways)
    }
}
