import PayRPCJSON

/// The documents as one transaction sees them, typed: what the body of a
/// ``StateStore/transaction(_:_:)`` reads and writes.
///
/// Reads see the writes made before them in the same body; nothing another caller writes comes in
/// between; all of it is kept together, or none of it (a body that throws leaves no trace).
/// Documents are the project's generated models, read and written by their codecs straight from
/// and into the stored JSON text.
public struct StoreTransaction: StoreReading {
    /// The store's own access to the documents.
    package let documents: any DocumentWriting

    /// The typed view of `documents` (what a ``StateStore`` implementation hands its bodies).
    public init(_ documents: any DocumentWriting) {
        self.documents = documents
    }

    /// The transaction's reads (they see its writes so far).
    public var reader: StoreReader { StoreReader(documents) }

    /// Stores `value`, encoded by its codec, at `key`, replacing any document there.
    /// - Throws: ``StoreError``.
    public func put<T: JSONEncodable>(_ value: T, profile: String, namespace: String, key: String) throws {
        try documents.putText(profile: profile, namespace: namespace, key: key, text: DocumentCoding.encode(value))
    }

    /// Deletes the document at `key`, if any.
    /// - Throws: ``StoreError``.
    public func delete(profile: String, namespace: String, key: String) throws {
        try documents.delete(profile: profile, namespace: namespace, key: key)
    }

    /// Publishes `payload` on `channel` with this transaction: its subscribers
    /// (``StateStore/subscribe(_:_:)``) get it once the transaction has committed, and never when it
    /// rolls back (an outbox row and a `NOTIFY` in the same transaction, on a shared store).
    /// - Throws: ``StoreError``.
    public func publish(_ payload: String, on channel: String) throws {
        try StoreArguments.checkName(channel, "channel", maximum: StoreArguments.maximumNameLength)
        try documents.publish(payload, on: channel)
    }

    /// Claims the idempotency key `key` for this gateway as the transaction commits, replacing any
    /// claim of it; nothing is claimed when the transaction rolls back. From the commit on, a
    /// ``IdempotencyStore/claim(profile:key:method:paramsDigest:now:)`` of the key answers
    /// `inProgress` until this gateway completes or abandons it (on a shared store: or dies). A
    /// shared outbox arms a delivery's try and holds it this way, in one transaction, so no other
    /// gateway can claim it between the commit and a claim made after it (``SharedDeliveries``).
    /// - Throws: ``StoreError``.
    public func claim(profile: String, key: String, method: String, paramsDigest: String) throws {
        try StoreArguments.check(profile: profile, key: key)
        try StoreArguments.checkName(method, "method", maximum: StoreArguments.maximumKeyLength)
        try documents.claim(profile: profile, key: key, method: method, paramsDigest: paramsDigest)
    }

    /// Publishes `event` as the JSON its codec writes (see ``publish(_:on:)-(String,_)``); the
    /// subscribers read it back with ``StateStore/subscribe(_:as:_:)``.
    /// - Throws: ``StoreError``.
    public func publish<Event: JSONEncodable>(_ event: Event, on channel: String) throws {
        try publish(DocumentCoding.encode(event), on: channel)
    }

    /// Read-modify-write of a typed document: `transform` changes the current value in place (nil:
    /// absent; set it to nil to delete) and returns a result. Nothing is written when it throws.
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<T: JSONCodable, R>(
        _ type: T.Type, profile: String, namespace: String, key: String, _ transform: (inout T?) throws -> R
    ) throws -> R {
        let current = try documents.text(profile: profile, namespace: namespace, key: key)
        var value = try current.map { try DocumentCoding.decode(T.self, from: $0, namespace: namespace, key: key) }
        let result = try transform(&value)
        if let value {
            try documents.putText(profile: profile, namespace: namespace, key: key, text: DocumentCoding.encode(value))
        } else if current != nil {
            try documents.delete(profile: profile, namespace: namespace, key: key)
        }
        return result
    }

    /// Changes the document at `key` in place, when there is one, and returns it as written; nil
    /// (and nothing written) when there is none: an outbox row's delivery, a payment's status.
    /// - Throws: ``StoreError``, or what `change` throws.
    public func change<T: JSONCodable>(
        _ type: T.Type, profile: String, namespace: String, key: String, _ change: (inout T) throws -> Void
    ) throws -> T? {
        try update(T.self, profile: profile, namespace: namespace, key: key) { stored in
            guard var value = stored else { return nil }
            try change(&value)
            stored = value
            return value
        }
    }

    /// ``update(_:profile:namespace:key:_:)`` of a document that reads as `empty` when absent
    /// and is always written back (a profile's settings, a counter).
    /// - Throws: ``StoreError``, or what `transform` throws.
    public func update<T: JSONCodable, R>(
        _ type: T.Type, profile: String, namespace: String, key: String, default empty: @autoclosure () -> T,
        _ transform: (inout T) throws -> R
    ) throws -> R {
        try update(T.self, profile: profile, namespace: namespace, key: key) { stored in
            var value = stored ?? empty()
            let result = try transform(&value)
            stored = value
            return result
        }
    }
}

/// The documents as a consistent read sees them, typed: what the body of a
/// ``StateStore/read(_:_:)`` reads.
public struct StoreReader: StoreReading {
    /// The store's own access to the documents.
    package let documents: any DocumentReading

    /// The typed view of `documents` (what a ``StateStore`` implementation hands its bodies).
    public init(_ documents: any DocumentReading) {
        self.documents = documents
    }

    /// Itself.
    public var reader: StoreReader { self }

    /// The profiles that have at least one document in `namespace`, in order (work a service
    /// resumes for every profile at start-up).
    /// - Throws: ``StoreError``.
    public func profiles(withDocumentsIn namespace: String) throws -> [String] {
        try documents.profiles(namespace: namespace)
    }
}

/// What both a ``StoreReader`` and a ``StoreTransaction`` read: a book's helpers that only read
/// take `some StoreReading`, so they serve inside a read and inside a transaction alike.
public protocol StoreReading {
    /// The consistent view the reads go to.
    var reader: StoreReader { get }
}

extension StoreReading {
    /// The document at `key` decoded as `T`, or nil when there is none.
    /// - Throws: ``StoreError`` (`invalidDocument` naming the JSON Pointer when it does not decode).
    public func get<T: JSONDecodable>(_ type: T.Type, profile: String, namespace: String, key: String) throws -> T? {
        try DocumentCoding.get(T.self, reader.documents, profile: profile, namespace: namespace, key: key)
    }

    /// The documents of a namespace whose keys start with `keyPrefix` (all when nil), decoded as
    /// `T`, ordered by key (byte order of the UTF-8 text).
    /// - Throws: ``StoreError`` (`invalidDocument` for the first that does not decode).
    public func list<T: JSONDecodable>(
        _ type: T.Type, profile: String, namespace: String, keyPrefix: String?
    ) throws -> [(key: String, value: T)] {
        try DocumentCoding.list(T.self, reader.documents, profile: profile, namespace: namespace, keyPrefix: keyPrefix)
    }

    /// Whether there is a document at `key` (of any shape).
    /// - Throws: ``StoreError``.
    public func contains(profile: String, namespace: String, key: String) throws -> Bool {
        try reader.documents.text(profile: profile, namespace: namespace, key: key) != nil
    }

    /// All the documents of a namespace, decoded, ordered by key.
    /// - Throws: ``StoreError`` (`invalidDocument` for the first that does not decode).
    public func list<T: JSONDecodable>(_ type: T.Type, profile: String, namespace: String) throws -> [(key: String, value: T)] {
        try list(T.self, profile: profile, namespace: namespace, keyPrefix: nil)
    }
}

/// What a store implementation reads for one transaction or read: documents as JSON text.
/// Services never call it; they get a ``StoreReader`` or ``StoreTransaction``.
public protocol DocumentReading {
    /// The JSON text of the document at `key`, or nil.
    /// - Throws: ``StoreError`` (`invalidArgument` for a bad name).
    func text(profile: String, namespace: String, key: String) throws -> String?
    /// The keys and texts of a namespace whose keys start with `keyPrefix` (nil: all), by key.
    /// - Throws: ``StoreError``.
    func texts(profile: String, namespace: String, keyPrefix: String?) throws -> [(key: String, text: String)]
    /// The profiles with a document in `namespace`, in order.
    /// - Throws: ``StoreError``.
    func profiles(namespace: String) throws -> [String]
}

/// What a store implementation writes for one transaction: documents as JSON text (always one
/// JSON value: the codecs write one).
public protocol DocumentWriting: DocumentReading {
    /// Stores `text` at `key`, replacing any document there.
    /// - Throws: ``StoreError``.
    func putText(profile: String, namespace: String, key: String, text: String) throws
    /// Deletes the document at `key`, if any.
    /// - Throws: ``StoreError``.
    func delete(profile: String, namespace: String, key: String) throws
    /// Publishes an event with the transaction (see ``StoreTransaction/publish(_:on:)``).
    /// - Throws: ``StoreError``.
    func publish(_ payload: String, on channel: String) throws
    /// Claims an idempotency key with the transaction (see ``StoreTransaction/claim(profile:key:method:paramsDigest:)``).
    /// - Throws: ``StoreError``.
    func claim(profile: String, key: String, method: String, paramsDigest: String) throws
}

/// Converts between stored JSON text and typed models with the hot-path codecs.
package enum DocumentCoding {
    static func get<T: JSONDecodable>(
        _ type: T.Type, _ documents: any DocumentReading, profile: String, namespace: String, key: String
    ) throws -> T? {
        guard let text = try documents.text(profile: profile, namespace: namespace, key: key) else { return nil }
        return try decode(T.self, from: text, namespace: namespace, key: key)
    }

    static func list<T: JSONDecodable>(
        _ type: T.Type, _ documents: any DocumentReading, profile: String, namespace: String, keyPrefix: String?
    ) throws -> [(key: String, value: T)] {
        try documents.texts(profile: profile, namespace: namespace, keyPrefix: keyPrefix).map { document in
            (document.key, try decode(T.self, from: document.text, namespace: namespace, key: document.key))
        }
    }

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
}
