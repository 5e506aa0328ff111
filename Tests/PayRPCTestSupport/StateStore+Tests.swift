import PayRPCJSON
import PayRPCStore

/// One-document reads and writes for tests that arrange or inspect a store's documents directly
/// (each one transaction or read). Services never have these: they go through their book.
extension StateStore {
    /// The document at `key` decoded as `T`, or nil.
    public func get<T: JSONDecodable & Sendable>(_ type: T.Type, profile: String, namespace: String, key: String) async throws
        -> T?
    {
        try await read("test.get") { try $0.get(T.self, profile: profile, namespace: namespace, key: key) }
    }

    /// The document at `key` as a JSON value, or nil.
    public func get(profile: String, namespace: String, key: String) async throws -> JSONValue? {
        try await get(JSONValue.self, profile: profile, namespace: namespace, key: key)
    }

    /// Stores `value` at `key`.
    public func put<T: JSONEncodable & Sendable>(_ value: T, profile: String, namespace: String, key: String) async throws {
        try await transaction("test.put") { try $0.put(value, profile: profile, namespace: namespace, key: key) }
    }

    /// Stores the JSON value `value` at `key`.
    public func put(profile: String, namespace: String, key: String, value: JSONValue) async throws {
        try await put(value, profile: profile, namespace: namespace, key: key)
    }

    /// Deletes the document at `key`.
    public func delete(profile: String, namespace: String, key: String) async throws {
        try await transaction("test.delete") { try $0.delete(profile: profile, namespace: namespace, key: key) }
    }

    /// Read-modify-write of one document as a JSON value: `transform` gets the current value (nil
    /// if absent) and returns the new one (nil deletes) and a result. One transaction.
    public func update<R: Sendable>(
        profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (JSONValue?) throws -> (JSONValue?, R)
    ) async throws -> R {
        try await transaction("test.update") { documents in
            try documents.update(JSONValue.self, profile: profile, namespace: namespace, key: key) { value in
                let (next, result) = try transform(value)
                value = next
                return result
            }
        }
    }

    /// The documents of a namespace as JSON values, by key.
    public func list(profile: String, namespace: String, keyPrefix: String? = nil) async throws -> [(
        key: String, value: JSONValue
    )] {
        try await read("test.list") { try $0.list(JSONValue.self, profile: profile, namespace: namespace, keyPrefix: keyPrefix) }
    }

    /// The documents of a namespace decoded as `T`, by key.
    public func list<T: JSONDecodable & Sendable>(_ type: T.Type, profile: String, namespace: String) async throws
        -> [(key: String, value: T)]
    {
        try await read("test.list") { try $0.list(T.self, profile: profile, namespace: namespace) }
    }
}

/// A stored document's JSON text exactly as stored (read as a document type, so a test can
/// compare the bytes a codec wrote).
public struct StoredText: JSONCodable, Sendable, Equatable {
    /// The text.
    public var text: String

    /// `text`, which must be one JSON value.
    public init(_ text: String) { self.text = text }

    public init(json: JSONElement) throws(JSONDecodingError) { text = json.rawText }

    public func encode(to writer: inout JSONWriter) { writer.raw(Array(text.utf8)) }
}

/// The code of the ``StoreError`` `body` throws; nil when it throws nothing or another error.
public func storeErrorCode(_ body: () async throws -> Void) async -> StoreError.Code? {
    do {
        try await body()
        return nil
    } catch let error as StoreError {
        return error.code
    } catch {
        return nil
    }
}
