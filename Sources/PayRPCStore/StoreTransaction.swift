import PayRPCJSON

/// The documents as one atomic write sees them: what the body of a
/// ``StateStore/transaction(_:_:)`` reads and writes.
///
/// Reads see the writes made before them in the same body; nothing another caller writes can come
/// in between; all of it reaches the disk together, or none of it does (a body that throws leaves
/// no trace). A flow that reads, checks and writes several documents (a request and the index
/// that points at it) is one transaction: one turn of the writer and one commit instead of one
/// per document.
public protocol StoreTransaction {
    /// The JSON text of the document at `key`, or nil when there is none.
    /// - Throws: ``StoreError``.
    func getText(profile: String, namespace: String, key: String) throws -> String?

    /// Stores the JSON text `text` (one JSON value) at `key`, replacing any document there.
    /// - Throws: ``StoreError``.
    func putText(profile: String, namespace: String, key: String, text: String) throws

    /// Deletes the document at `key`, if any.
    /// - Throws: ``StoreError``.
    func delete(profile: String, namespace: String, key: String) throws
}

/// Typed access inside a transaction, with the project's generated codecs (as `StateStore+Typed`).
extension StoreTransaction {
    /// The document at `key` decoded as `T`, or nil when there is none.
    /// - Throws: ``StoreError`` (`invalidDocument` when it does not decode as `T`).
    public func get<T: JSONDecodable>(_ type: T.Type, profile: String, namespace: String, key: String) throws -> T? {
        guard let text = try getText(profile: profile, namespace: namespace, key: key) else { return nil }
        return try DocumentCoding.decode(T.self, from: text, namespace: namespace, key: key)
    }

    /// Stores `value` encoded with its codec at `key`.
    /// - Throws: ``StoreError``.
    public func put<T: JSONEncodable>(_ value: T, profile: String, namespace: String, key: String) throws {
        try putText(profile: profile, namespace: namespace, key: key, text: DocumentCoding.encode(value))
    }

    /// Read-modify-write of the stored text: `transform` gets the current text (nil if absent) and
    /// returns the new one (nil deletes) and a result.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func updateText<R>(
        profile: String, namespace: String, key: String, _ transform: (String?) throws -> (String?, R)
    ) throws -> R {
        let current = try getText(profile: profile, namespace: namespace, key: key)
        let (next, result) = try transform(current)
        if let next {
            try putText(profile: profile, namespace: namespace, key: key, text: next)
        } else if current != nil {
            try delete(profile: profile, namespace: namespace, key: key)
        }
        return result
    }

    /// Read-modify-write of a typed document: `transform` changes the current value in place (nil:
    /// absent; set it to nil to delete) and returns a result. Nothing is written when it throws.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<T: JSONCodable & SendableMetatype, R>(
        _ type: T.Type, profile: String, namespace: String, key: String, _ transform: (inout T?) throws -> R
    ) throws -> R {
        try updateText(profile: profile, namespace: namespace, key: key) { current in
            var value = try current.map { try DocumentCoding.decode(T.self, from: $0, namespace: namespace, key: key) }
            let result = try transform(&value)
            return (value.map(DocumentCoding.encode), result)
        }
    }
}
