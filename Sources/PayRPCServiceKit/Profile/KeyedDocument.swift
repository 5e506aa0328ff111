import PayRPCJSON
import PayRPCStore

/// A document a profile keeps many of in one namespace, each under its own key (Northstar's
/// orders, authorizations and nonces; Dotpay's cards and payments). Its book reads and changes it
/// with the helpers below, inside its own reads and transactions, naming the key only: the
/// namespace is the type's, written once.
public protocol KeyedDocument: JSONCodable {
    /// The namespace its documents are kept in (`northstar.orders`).
    static var namespace: String { get }
}

extension StoreReading {
    /// The profile's `D` at `key`, or nil when there is none.
    /// - Throws: ``StoreError`` (`invalidDocument` when the stored one does not decode).
    public func get<D: KeyedDocument>(_ type: D.Type, profile: String, key: String) throws -> D? {
        try get(D.self, profile: profile, namespace: D.namespace, key: key)
    }

    /// Whether the profile has a `D` at `key`.
    /// - Throws: ``StoreError``.
    public func contains<D: KeyedDocument>(_ type: D.Type, profile: String, key: String) throws -> Bool {
        try contains(profile: profile, namespace: D.namespace, key: key)
    }

    /// All the profile's `D`s, ordered by key.
    /// - Throws: ``StoreError`` (`invalidDocument` for the first that does not decode).
    public func list<D: KeyedDocument>(_ type: D.Type, profile: String) throws -> [(key: String, value: D)] {
        try list(D.self, profile: profile, namespace: D.namespace)
    }
}

extension StoreTransaction {
    /// Stores `document` at `key`, replacing the one there.
    /// - Throws: ``StoreError``.
    public func put<D: KeyedDocument>(_ document: D, profile: String, key: String) throws {
        try put(document, profile: profile, namespace: D.namespace, key: key)
    }

    /// Read-modify-write of the `D` at `key` (``StoreTransaction/update(_:profile:namespace:key:_:)``:
    /// nil when absent; set it to nil to delete); nothing is written when `transform` throws.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<D: KeyedDocument, R>(
        _ type: D.Type, profile: String, key: String, _ transform: (inout D?) throws -> R
    ) throws -> R {
        try update(D.self, profile: profile, namespace: D.namespace, key: key, transform)
    }

    /// Forgets the `D` at `key`, if any.
    /// - Throws: ``StoreError``.
    public func delete<D: KeyedDocument>(_ type: D.Type, profile: String, key: String) throws {
        try delete(profile: profile, namespace: D.namespace, key: key)
    }
}
