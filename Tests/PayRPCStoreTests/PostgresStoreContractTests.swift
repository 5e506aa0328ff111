import PayRPCTestSupport
import Testing
import PayRPCSQLite

/// The PostgreSQL store keeps the contract every ``StateStore`` keeps, on a throw-away cluster
/// the tests start (``PostgresTestCluster``).
@Suite("PostgreSQL store: the StateStore contract")
struct PostgresStoreContractTests {
    @Test(arguments: StoreContract<PostgresStoreFactory>.clauses)
    func clause(_ clause: StoreContract<PostgresStoreFactory>.Clause) async throws {
        try await clause.check(StoreContract(PostgresStoreFactory()))
    }
}
