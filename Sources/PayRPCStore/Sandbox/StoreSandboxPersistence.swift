import PayRPCCore

/// The sandbox controls' persistence on a ``StateStore``: each save is one transaction.
public struct StoreSandboxPersistence: SandboxPersistence {
    let store: any StateStore

    /// Saves the profiles' sandbox documents in `store`.
    public init(store: any StateStore) {
        self.store = store
    }

    public func save(_ changes: [SandboxChange]) async throws {
        try await store.transaction("sandbox.save") { try SandboxDocuments.write(changes, into: $0) }
    }
}
