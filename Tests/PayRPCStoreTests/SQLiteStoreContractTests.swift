import PayRPCTestSupport
import Testing
import PayRPCSQLite

/// The SQLite store keeps the contract every ``StateStore`` keeps.
@Suite("SQLite store: the StateStore contract")
struct SQLiteStoreContractTests {
    @Test(arguments: StoreContract<SQLiteStoreFactory>.clauses)
    func clause(_ clause: StoreContract<SQLiteStoreFactory>.Clause) async throws {
        try await clause.check(StoreContract(SQLiteStoreFactory()))
    }
}
