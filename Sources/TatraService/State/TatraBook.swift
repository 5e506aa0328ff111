import PayRPCServiceKit
import PayRPCStore

/// Tatra's state in the store, behind intent-named methods: each profile's
/// ``TatraProfileState`` (namespace `tatra`, key `profile`).
struct TatraBook: Sendable {
    let store: any StateStore

    /// The profile's state (defaults when it has none).
    func profileState(_ profile: String) async throws -> TatraProfileState {
        try await store.read("tatra.profileState") { documents in
            try documents.document(TatraProfileState.self, profile: profile) ?? TatraProfileState()
        }
    }

    /// Changes the profile's state atomically and durably; `body` returns what happened.
    func updateProfileState<R: Sendable>(
        _ profile: String, _ body: @escaping @Sendable (inout TatraProfileState) -> R
    ) async throws -> R {
        try await store.transaction("tatra.updateProfileState") { documents in
            try documents.updateDocument(TatraProfileState.self, profile: profile, default: TatraProfileState(), body)
        }
    }

    /// Forgets the profile's state (`sandbox.tatra.resetProfile`).
    func resetProfile(_ profile: String) async throws {
        try await store.transaction("tatra.resetProfile") { documents in
            try documents.deleteDocument(TatraProfileState.self, profile: profile)
        }
    }
}
