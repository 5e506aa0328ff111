import PayRPCJSON

/// Typed access with the project's generated codecs, on the stored JSON text: reading decodes the
/// stored bytes straight into the model, writing stores the bytes its codec wrote.
extension StateStore {
    /// The document at `key` decoded as `T`, or nil when there is none.
    /// - Throws: ``StoreError`` (`invalidDocument` naming the JSON Pointer when it does not
    ///   decode as `T`).
    public func get<T: JSONDecodable>(
        _ type: T.Type, profile: String, namespace: String, key: String
    ) async throws -> T? {
        guard let text = try await getText(profile: profile, namespace: namespace, key: key) else { return nil }
        return try DocumentCoding.decode(T.self, from: text, namespace: namespace, key: key)
    }

    /// Stores `value` encoded with its codec at `key`; durable when it returns.
    /// - Throws: ``StoreError``.
    public func put<T: JSONEncodable>(_ value: T, profile: String, namespace: String, key: String) async throws {
        try await putText(profile: profile, namespace: namespace, key: key, text: DocumentCoding.encode(value))
    }

    /// The documents of a namespace decoded as `T`, ordered by key.
    /// - Throws: ``StoreError`` (`invalidDocument` for the first that does not decode).
    public func list<T: JSONDecodable>(
        _ type: T.Type, profile: String, namespace: String, keyPrefix: String? = nil
    ) async throws -> [(key: String, value: T)] {
        try await listText(profile: profile, namespace: namespace, keyPrefix: keyPrefix).map { document in
            (document.key, try DocumentCoding.decode(T.self, from: document.text, namespace: namespace, key: document.key))
        }
    }

    /// Atomic read-modify-write of a typed document: `transform` gets the current value (nil if
    /// absent) to change in place (set it to nil to delete) and returns a result.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<T: JSONCodable & SendableMetatype, R: Sendable>(
        _ type: T.Type, profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (inout T?) throws -> R
    ) async throws -> R {
        try await transaction("update") { documents in
            try documents.update(T.self, profile: profile, namespace: namespace, key: key, transform)
        }
    }
}

/// The text operations through the `JSONValue` ones, for a store that keeps values rather than
/// text (the SQLite store implements them on the text it stores).
extension StateStore {
    public func getText(profile: String, namespace: String, key: String) async throws -> String? {
        try await get(profile: profile, namespace: namespace, key: key)?.jsonText
    }

    public func putText(profile: String, namespace: String, key: String, text: String) async throws {
        try await put(profile: profile, namespace: namespace, key: key, value: DocumentCoding.parse(text))
    }

    public func listText(profile: String, namespace: String, keyPrefix: String?) async throws -> [(key: String, text: String)] {
        try await list(profile: profile, namespace: namespace, keyPrefix: keyPrefix).map { ($0.key, $0.value.jsonText) }
    }

    public func updateText<R: Sendable>(
        profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (String?) throws -> (String?, R)
    ) async throws -> R {
        try await update(profile: profile, namespace: namespace, key: key) { current in
            let (next, result) = try transform(current?.jsonText)
            return (try next.map(DocumentCoding.parse), result)
        }
    }
}

/// Converts between stored JSON text and typed models with the hot-path codecs.
enum DocumentCoding {
    /// `text` read as `T`, in one pass over its bytes.
    static func decode<T: JSONDecodable>(
        _ type: T.Type, from text: String, namespace: String, key: String
    ) throws(StoreError) -> T {
        do {
            let tape = try JSONTape(string: text)
            return try tape.withRoot { root throws(JSONDecodingError) in try T(json: root) }
        } catch let error as JSONDecodingError {
            throw StoreError(.invalidDocument, "\(namespace)/\(key) is not a \(T.self): \(error)")
        } catch {
            throw StoreError(.corrupt, "the stored document \(namespace)/\(key) is not valid JSON (\(error))")
        }
    }

    /// `value` as the JSON text its codec writes.
    static func encode<T: JSONEncodable>(_ value: T) -> String {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return writer.text
    }

    /// JSON text as a value (the fallback path only).
    static func parse(_ text: String) throws(StoreError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw StoreError(.invalidDocument, "not a JSON value: \(error)")
        }
    }
}
