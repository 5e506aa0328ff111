#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCSandbox

/// The store as services see it in a gateway: every transaction also writes what the call
/// changed in the sandbox's state and has not saved yet (the positions of the seeded streams it
/// drew an id from, a moved clock), so a call that draws a token and stores its request commits
/// once, and the token's draw is durable exactly when the request is.
public struct SandboxedStore: StateStore {
    let store: any StateStore
    let sandbox: SandboxControls

    /// `store`, saving `sandbox`'s changes with each transaction.
    public init(store: any StateStore, sandbox: SandboxControls) {
        self.store = store
        self.sandbox = sandbox
    }

    public func transaction<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreTransaction) throws -> R
    ) async throws -> R {
        // What the call changed before the body and while it runs (a draw inside it) is saved with it.
        // On a shared store, only the profile whose lock the call holds: the lock keeps other
        // gateways from drawing from its streams meanwhile, so an attempt run again after a
        // conflict draws on from where the last one stopped (values skipped, none repeated).
        let sandbox = self.sandbox, locked = SandboxControls.lockedProfile
        let (result, saved) = try await store.transaction(operation) { documents in
            let result = try body(documents)
            let changes = sandbox.unsavedChanges(locked: locked)
            try SandboxDocuments.write(changes, into: documents)
            return (result, changes)
        }
        sandbox.markSaved(saved)
        return result
    }

    public func read<R: Sendable>(_ operation: String, _ body: @escaping @Sendable (StoreReader) throws -> R) async throws -> R {
        try await store.read(operation, body)
    }

    public func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription {
        store.subscribe(channel, handler)
    }

    public func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim
    {
        try await store.claim(profile: profile, key: key, method: method, paramsDigest: paramsDigest, now: now)
    }

    public func complete(profile: String, key: String, outcome: String) async throws {
        try await store.complete(profile: profile, key: key, outcome: outcome)
    }

    public func abandon(profile: String, key: String) async throws {
        try await store.abandon(profile: profile, key: key)
    }
}
