import PayRPCStore

/// A service's outbox in the store, per profile: its items read and changed by key, each read or
/// change one store operation. The book of a service that owes remote parties something holds one
/// and writes new items in the transactions of what they report.
public struct Outbox<Item: OutboxItem>: Sendable {
    private let store: any StateStore

    /// The outbox of `Item`s in `store`.
    public init(store: any StateStore) {
        self.store = store
    }

    /// The item `key` of the profile, if there is one.
    /// - Throws: ``StoreError``.
    public func item(_ key: String, profile: String) async throws -> Item? {
        try await store.read(Item.namespace + ".get") { documents in
            try documents.get(Item.self, profile: profile, namespace: Item.namespace, key: key)
        }
    }

    /// Every item of the profile, oldest first (ties by key).
    /// - Throws: ``StoreError``.
    public func items(profile: String) async throws -> [Item] {
        try await store.read(Item.namespace + ".list") { documents in
            try documents.list(Item.self, profile: profile, namespace: Item.namespace).map(\.value)
                .sorted { ($0.createdAt, $0.outboxKey) < ($1.createdAt, $1.outboxKey) }
        }
    }

    /// The profiles with items in the outbox (whose undelivered ones are sent at start-up).
    /// - Throws: ``StoreError``.
    public func profiles() async throws -> [String] {
        try await store.read(Item.namespace + ".profiles") { try $0.profiles(withDocumentsIn: Item.namespace) }
    }

    /// Changes the item `key` atomically (a step of its delivery) and publishes `push`, the
    /// callback that tells of the change, and what `publish` publishes, in the same transaction; returns the item as stored (nil: there is none, and
    /// nothing is written or published).
    /// - Throws: ``StoreError``.
    @discardableResult
    public func change(
        _ key: String, profile: String, announcing push: ProfilePush? = nil,
        publishing publish: (@Sendable (StoreTransaction) throws -> Void)? = nil,
        _ change: @escaping @Sendable (inout Item) -> Void
    ) async throws -> Item? {
        try await store.transaction(Item.namespace + ".change") { documents in
            let item = try documents.change(Item.self, profile: profile, namespace: Item.namespace, key: key, change)
            guard let item else { return nil }
            if let push { try push.publish(in: documents) }
            try publish?(documents)
            return item
        }
    }
}
