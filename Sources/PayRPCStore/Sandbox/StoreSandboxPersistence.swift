import PayRPCCore
import PayRPCSandbox

/// The sandbox controls' persistence on a ``StateStore``: each save is one transaction. On a store
/// other instances share (a ``SandboxLockingStore``), it also reads a profile's documents before
/// its calls and holds the profile's sandbox lock for those that change them.
public struct StoreSandboxPersistence: SandboxPersistence {
    let store: any StateStore
    let locking: (any SandboxLockingStore)?

    /// Saves the profiles' sandbox documents in `store`.
    public init(store: any StateStore) {
        self.store = store
        self.locking = store.sandboxLocking
    }

    public func save(_ changes: [SandboxChange]) async throws {
        try await store.transaction("sandbox.save") { try SandboxDocuments.write(changes, into: $0) }
    }

    public var sharesState: Bool { locking != nil }

    /// A document that does not read is left out (logged once, at start-up): the profile's
    /// control starts afresh, as it did then.
    public func load(profile: String) async throws -> StoredSandboxState {
        try await store.read("sandbox.load") { documents in
            try SandboxDocuments.read(profile: profile, from: documents) { _, _ in }
        }
    }

    public func lock(profile: String) async throws -> any SandboxLease {
        guard let locking else { return UnsharedSandboxLease() }
        return try await locking.sandboxLease(profile: profile)
    }
}

/// A store that instances share, with a lock per profile across them for the calls that change
/// the profile's sandbox documents
/// (``SandboxControls/enter(profile:method:changesControls:drawsUnderLock:)``).
public protocol SandboxLockingStore: Sendable {
    /// Takes the profile's sandbox lock, waiting while any instance holds it, and returns it held.
    /// - Throws: ``StoreError`` when the store cannot be reached.
    func sandboxLease(profile: String) async throws -> any SandboxLease
}
