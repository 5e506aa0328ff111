import PayRPCJSON
import PayRPCStore

/// A document a profile has at most one of, at a fixed place: a service's settings or its state
/// of the profile (Tatra's profile state, Dotpay's and Journal's settings, Northstar's client
/// configuration). Its books read and change it with the helpers below, inside their own reads and
/// transactions, instead of naming the namespace and key at every call.
public protocol ProfileDocument: JSONCodable {
    /// The namespace it is kept in (`dotpay`).
    static var namespace: String { get }
    /// Its key in the namespace (`settings`).
    static var key: String { get }
}

extension StoreReading {
    /// The profile's `D`, or nil when it has none.
    /// - Throws: ``StoreError`` (`invalidDocument` when the stored one does not decode).
    public func document<D: ProfileDocument>(_ type: D.Type, profile: String) throws -> D? {
        try get(D.self, profile: profile, namespace: D.namespace, key: D.key)
    }
}

extension StoreTransaction {
    /// Stores the profile's `D`, replacing the one stored.
    /// - Throws: ``StoreError``.
    public func put<D: ProfileDocument>(document: D, profile: String) throws {
        try put(document, profile: profile, namespace: D.namespace, key: D.key)
    }

    /// Changes the profile's `D` in place (`empty` when it has none), writes it back, and returns
    /// what `body` returns; nothing is written when `body` throws.
    /// - Throws: ``StoreError``, or what `body` throws.
    public func updateDocument<D: ProfileDocument, R>(
        _ type: D.Type, profile: String, default empty: @autoclosure () -> D, _ body: (inout D) throws -> R
    ) throws -> R {
        try update(D.self, profile: profile, namespace: D.namespace, key: D.key, default: empty(), body)
    }

    /// Forgets the profile's `D`.
    /// - Throws: ``StoreError``.
    public func deleteDocument<D: ProfileDocument>(_ type: D.Type, profile: String) throws {
        try delete(profile: profile, namespace: D.namespace, key: D.key)
    }
}
