import PayRPCJSON
import PayRPCSchema
import PayRPCStore

/// The journal's state in the store, behind intent-named methods: entries (namespace
/// `journal.entries`, key the entry id, the outbox inside) and the profile's backend setting
/// (`journal/config`).
struct JournalBook: Sendable {
    static let entries = "journal.entries"

    let store: any StateStore

    /// Saves a new entry with its outbox: one document, one transaction.
    func save(_ entry: JournalEntry, profile: String) async throws {
        try await store.transaction("journal.saveEntry") { documents in
            try documents.put(entry, profile: profile, namespace: Self.entries, key: entry.entryId)
        }
    }

    /// The entry `id`.
    func entry(_ id: String, profile: String) async throws -> JournalEntry? {
        try await store.read("journal.entry") { documents in
            try documents.get(JournalEntry.self, profile: profile, namespace: Self.entries, key: id)
        }
    }

    /// Every entry of the profile, newest first.
    func all(profile: String) async throws -> [JournalEntry] {
        try await store.read("journal.entries") { documents in
            try documents.list(JournalEntry.self, profile: profile, namespace: Self.entries).map(\.value)
                .sorted { ($0.createdAt, $0.entryId) > ($1.createdAt, $1.entryId) }
        }
    }

    /// The profiles that have entries (whose waiting ones are sent at start-up).
    func profilesWithEntries() async throws -> [String] {
        try await store.read("journal.profiles") { try $0.profiles(withDocumentsIn: Self.entries) }
    }

    /// Changes an entry's delivery atomically; returns the entry as stored (nil: there is none).
    @discardableResult
    func updateDelivery(
        _ id: String, profile: String,
        _ change: @escaping @Sendable (inout Delivery) -> Void
    ) async throws -> JournalEntry? {
        try await store.transaction("journal.updateDelivery") { documents in
            try documents.update(JournalEntry.self, profile: profile, namespace: Self.entries, key: id) { stored in
                guard var entry = stored else { return nil }
                change(&entry.delivery)
                stored = entry
                return entry
            }
        }
    }

    /// The profile's backend base URL, if it set one.
    func backend(profile: String) async throws -> String? {
        try await store.read("journal.backend") { documents in
            try documents.get(
                JournalConfiguration.self, profile: profile, namespace: JournalConfiguration.namespace,
                key: JournalConfiguration.key)?.backendURL
        }
    }

    /// Sets the profile's backend base URL (nil: the server's).
    func setBackend(_ url: String?, profile: String) async throws {
        try await store.transaction("journal.configure") { documents in
            try documents.put(
                JournalConfiguration(backendURL: url), profile: profile,
                namespace: JournalConfiguration.namespace, key: JournalConfiguration.key)
        }
    }
}

/// A profile's journal setting (namespace `journal`, key `config`).
struct JournalConfiguration: JSONModel, Equatable {
    static let namespace = "journal"
    static let key = "config"

    /// The Web API's base URL; nil uses the server's (`serve --journal-backend`).
    var backendURL: String?
}
