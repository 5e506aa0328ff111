import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCStore

/// The journal's documents in the store: entries (namespace `journal.entries`, key the entry id,
/// the outbox inside) and the profile's backend setting (`journal/config`).
struct JournalStore: Sendable {
    static let entries = "journal.entries"

    let store: any StateStore

    /// Saves a new entry with its outbox: one document, one transaction.
    func save(_ entry: JournalEntry, profile: String) async throws {
        try await store.put(entry, profile: profile, namespace: Self.entries, key: entry.entryId)
    }

    /// The entry `id`.
    func entry(_ id: String, profile: String) async throws -> JournalEntry? {
        try await store.get(JournalEntry.self, profile: profile, namespace: Self.entries, key: id)
    }

    /// Every entry of the profile, newest first.
    func all(profile: String) async throws -> [JournalEntry] {
        try await store.list(JournalEntry.self, profile: profile, namespace: Self.entries).map(\.value)
            .sorted { ($0.createdAt, $0.entryId) > ($1.createdAt, $1.entryId) }
    }

    /// Changes an entry's delivery atomically; returns the entry as stored.
    func updateDelivery(_ id: String, profile: String,
                        _ change: @escaping @Sendable (inout Delivery) -> Void) async throws -> JournalEntry? {
        try await store.update(JournalEntry.self, profile: profile, namespace: Self.entries, key: id) { stored in
            guard var entry = stored else { return nil }
            change(&entry.delivery)
            stored = entry
            return entry
        }
    }

    /// The profile's backend base URL, if it set one.
    func backend(profile: String) async throws -> String? {
        try await store.get(JournalConfiguration.self, profile: profile, namespace: JournalConfiguration.namespace,
                            key: JournalConfiguration.key)?.backendURL
    }
}

/// A profile's journal setting (namespace `journal`, key `config`).
struct JournalConfiguration: JSONModel, Equatable {
    static let namespace = "journal"
    static let key = "config"

    /// The Web API's base URL; nil uses the server's (`serve --journal-backend`).
    var backendURL: String?
}
