import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import PayRPCStore
import PayRPCSecrets

/// The journal's state in the store, behind intent-named methods: entries (namespace
/// `journal.entries`, key the entry id, the outbox inside), the callbacks already handled
/// (`journal.callbacks`, key the `Payment_Number`), the profile's settings (`journal/config`) and
/// the built-in sandbox Web API's next answers (`journal/sandboxWebAPI`).
struct JournalBook: Sendable {
    static let entries = JournalEntry.namespace
    static let callbacks = "journal.callbacks"

    let store: any StateStore
    /// Seals the backend's URL in the settings (``JournalSettings/sealedBackendURL``).
    let secrets: SecretHasher

    /// Saves a new entry with its outbox: one document, one transaction, which also publishes
    /// what `publish` publishes (its first try armed, on a shared store).
    func save(_ entry: JournalEntry, profile: String, publishing publish: DeliveryRetry.Publishing?) async throws {
        try await store.transaction("journal.saveEntry") { documents in
            try documents.put(entry, profile: profile, namespace: Self.entries, key: entry.entryId)
            try publish?(documents)
        }
    }

    /// Saves the entry of a callback whose `Payment_Number` is `number`, unless a callback with
    /// that number was saved before: then that entry comes back and nothing is written. One
    /// transaction, so two copies of one callback handled at once make one entry; a new entry's
    /// transaction also publishes what `publish` publishes.
    /// - Returns: the entry stored for the number, and whether it is the one just saved.
    func saveCallback(
        _ entry: JournalEntry, paymentNumber number: String, profile: String, publishing publish: DeliveryRetry.Publishing?
    ) async throws
        -> (entry: JournalEntry, saved: Bool)
    {
        try await store.transaction("journal.saveCallback") { documents in
            if let handled = try documents.get(HandledCallback.self, profile: profile, namespace: Self.callbacks, key: number),
                let earlier = try documents.get(
                    JournalEntry.self, profile: profile, namespace: Self.entries, key: handled.entryId)
            {
                return (earlier, false)
            }
            try documents.put(entry, profile: profile, namespace: Self.entries, key: entry.entryId)
            try documents.put(HandledCallback(entryId: entry.entryId), profile: profile, namespace: Self.callbacks, key: number)
            try publish?(documents)
            return (entry, true)
        }
    }

    /// The entry saved for the callback whose `Payment_Number` is `number`, if one was.
    func callbackEntry(paymentNumber number: String, profile: String) async throws -> JournalEntry? {
        try await store.read("journal.callbackEntry") { documents in
            guard let handled = try documents.get(HandledCallback.self, profile: profile, namespace: Self.callbacks, key: number)
            else {
                return nil
            }
            return try documents.get(JournalEntry.self, profile: profile, namespace: Self.entries, key: handled.entryId)
        }
    }

    /// The entries with their outbox.
    var outbox: Outbox<JournalEntry> { Outbox(store: store) }

    /// The entry `id`.
    func entry(_ id: String, profile: String) async throws -> JournalEntry? {
        try await outbox.item(id, profile: profile)
    }

    /// Every entry of the profile, newest first.
    func all(profile: String) async throws -> [JournalEntry] {
        try await outbox.items(profile: profile).reversed()
    }

    /// Changes an entry's delivery atomically, publishing `push` (the callback that tells of the
    /// change) and what `publish` publishes in the same transaction; returns the entry as stored
    /// (nil: there is none).
    @discardableResult
    func updateDelivery(
        _ id: String, profile: String, announcing push: ProfilePush? = nil,
        publishing publish: (@Sendable (StoreTransaction) throws -> Void)? = nil,
        _ change: @escaping @Sendable (inout Delivery) -> Void
    ) async throws -> JournalEntry? {
        try await outbox.change(id, profile: profile, announcing: push, publishing: publish) { change(&$0.delivery) }
    }

    /// The profile's journal settings (all defaults when it set none), the backend's URL opened.
    /// - Throws: the store's error, or ``StoreError`` `secretKey` when the sealed URL does not open
    ///   with this gateway's store key.
    func settings(profile: String) async throws -> JournalSettings {
        var settings = try await store.read("journal.settings") { documents in
            try documents.document(JournalSettings.self, profile: profile) ?? JournalSettings()
        }
        if let sealed = settings.sealedBackendURL {
            guard let url = secrets.unseal(sealed, context: JournalSettings.backendURLContext) else {
                throw StoreError(
                    .secretKey, "the journal backend's URL of profile \(profile) does not open with this gateway's store key")
            }
            settings.backendURL = url
            settings.sealedBackendURL = nil
        }
        return settings
    }

    /// Replaces the profile's journal settings; the backend's URL is stored sealed.
    func configure(_ settings: JournalSettings, profile: String) async throws {
        var stored = settings
        stored.sealedBackendURL = try settings.backendURL.map {
            try secrets.seal($0, context: JournalSettings.backendURLContext)
        }
        stored.backendURL = nil
        try await store.transaction("journal.configure") { [stored] documents in
            try documents.put(document: stored, profile: profile)
        }
    }

    /// Replaces the answers the built-in sandbox Web API gives the profile's next POSTs (none:
    /// it accepts every POST).
    func setSandboxAnswers(_ answers: [SandboxAnswer], profile: String) async throws {
        try await store.transaction("journal.setSandboxAnswers") { documents in
            if answers.isEmpty {
                try documents.deleteDocument(SandboxWebAPIState.self, profile: profile)
            } else {
                try documents.put(document: SandboxWebAPIState(nextAnswers: answers), profile: profile)
            }
        }
    }

    /// Takes the answer the built-in sandbox Web API gives the profile's next POST (nil: none is
    /// set, it accepts). Writes only when one is set.
    func takeSandboxAnswer(profile: String) async throws -> SandboxAnswer? {
        let namespace = SandboxWebAPIState.namespace, key = SandboxWebAPIState.key
        guard
            try await store.read("journal.sandboxAnswers", { try $0.contains(profile: profile, namespace: namespace, key: key) })
        else { return nil }
        return try await store.transaction("journal.takeSandboxAnswer") { documents in
            try documents.update(SandboxWebAPIState.self, profile: profile, namespace: namespace, key: key) {
                stored -> SandboxAnswer? in
                guard var state = stored, !state.nextAnswers.isEmpty else { return nil }
                let answer = state.nextAnswers.removeFirst()
                stored = state.nextAnswers.isEmpty ? nil : state
                return answer
            }
        }
    }
}
