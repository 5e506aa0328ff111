import PayRPCJSON

/// Typed access with the project's JSON codecs (the generated models are `JSONCodable`).
extension StateStore {
    /// The document at `key` decoded as `T`, or nil when there is none.
    /// - Throws: ``StoreError`` (`invalidDocument` naming the JSON Pointer when it does not
    ///   decode as `T`).
    public func get<T: JSONDecodable>(
        _ type: T.Type, profile: String, namespace: String, key: String
    ) async throws -> T? {
        guard let value = try await get(profile: profile, namespace: namespace, key: key) else { return nil }
        return try DocumentCoding.decode(T.self, from: value, namespace: namespace, key: key)
    }

    /// Stores `value` encoded with its codec at `key`; durable when it returns.
    /// - Throws: ``StoreError``.
    public func put<T: JSONEncodable>(_ value: T, profile: String, namespace: String, key: String) async throws {
        try await put(profile: profile, namespace: namespace, key: key, value: try DocumentCoding.encode(value))
    }

    /// The documents of a namespace decoded as `T`, ordered by key.
    /// - Throws: ``StoreError`` (`invalidDocument` for the first that does not decode).
    public func list<T: JSONDecodable>(
        _ type: T.Type, profile: String, namespace: String, keyPrefix: String? = nil
    ) async throws -> [(key: String, value: T)] {
        try await list(profile: profile, namespace: namespace, keyPrefix: keyPrefix).map { document in
            (document.key, try DocumentCoding.decode(T.self, from: document.value, namespace: namespace, key: document.key))
        }
    }

    /// Atomic read-modify-write of a typed document: `transform` gets the current value (nil if
    /// absent) to change in place (set it to nil to delete) and returns a result.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<T: JSONCodable & SendableMetatype, R: Sendable>(
        _ type: T.Type, profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (inout T?) throws -> R
    ) async throws -> R {
        try await update(profile: profile, namespace: namespace, key: key) { current in
            var value = try current.map { try DocumentCoding.decode(T.self, from: $0, namespace: namespace, key: key) }
            let result = try transform(&value)
            return (try value.map { try DocumentCoding.encode($0) }, result)
        }
    }
}

/// Converts between JSON values and typed models with the hot-path codecs.
enum DocumentCoding {
    /// `value` read as `T`.
    static func decode<T: JSONDecodable>(
        _ type: T.Type, from value: JSONValue, namespace: String, key: String
    ) throws(StoreError) -> T {
        var writer = JSONWriter()
        value.encode(to: &writer)
        do {
            let tape = try JSONTape(copying: writer.bytes)
            return try tape.withRoot { root throws(JSONDecodingError) in try T(json: root) }
        } catch let error as JSONDecodingError {
            throw StoreError(.invalidDocument, "\(namespace)/\(key) is not a \(T.self): \(error)")
        } catch {
            throw StoreError(.invalidDocument, "\(namespace)/\(key) is not valid JSON: \(error)")
        }
    }

    /// `value` written as a JSON value.
    /// - Throws: ``StoreError`` (`invalidDocument`) when the codec wrote something that is not JSON.
    static func encode<T: JSONEncodable>(_ value: T) throws(StoreError) -> JSONValue {
        var writer = JSONWriter()
        value.encode(to: &writer)
        do {
            return try JSONTape(copying: writer.bytes).withRoot { JSONValue($0) }
        } catch {
            throw StoreError(.invalidDocument, "the codec of \(T.self) wrote invalid JSON: \(error)")
        }
    }
}
