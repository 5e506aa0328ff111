import PayRPCSandbox
import PayRPCStore
import PayRPCTestSupport
import Testing
import PayRPCPostgres
import PayRPCSQLite

/// Which stores take the profiles' sandbox locks across instances (``StateStore/sandboxLocking``):
/// a shared PostgreSQL store does; the embedded SQLite store has no other instance to wait for.
@Suite("Sandbox locks by store")
struct SandboxLockingTests {
    @Test func theSQLiteStoreTakesNoSandboxLocks() async throws {
        try await withStore { store, _ in
            #expect(store.sandboxLocking == nil)
            #expect(!StoreSandboxPersistence(store: store).sharesState)
        }
    }

    @Test func aSharedPostgresStoreTakesItsOwnSandboxLocks() async throws {
        let factory = PostgresStoreFactory()
        let store = try await factory.makeStore(maximumBytes: nil)
        #expect(store.sandboxLocking as? PostgresStateStore === store)
        #expect(StoreSandboxPersistence(store: store).sharesState)
        try await factory.discard(store)
    }
}
