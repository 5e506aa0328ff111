import PayRPCCore
import PayRPCJSON

/// Where services keep their state: a document store scoped by profile, then namespace, then key.
///
/// What services use; SQLite today (``SQLiteStateStore``), PostgreSQL later — no service may see
/// GRDB types. A namespace is the name of the service or of one of its collections (`tatra`,
/// `pbba.requests`, `oneclick.cards`); a key is the document's id within it. Documents are JSON
/// values; the typed conveniences in `StateStore+Typed.swift` read and write the project's
/// generated models. Secrets go in only masked or hashed (see ``SecretHasher``).
///
/// Every method is asynchronous. A write waits for its group commit without holding the caller's
/// thread and has reached the disk when its call returns; a read may run on the caller's thread
/// (a short SQLite read, cheaper than a hop to a reader queue and back).
public protocol StateStore: IdempotencyStore, Sendable {
    /// The document at `key`, or nil when there is none.
    /// - Throws: ``StoreError``.
    func get(profile: String, namespace: String, key: String) async throws -> JSONValue?

    /// Stores `value` at `key`, replacing any document there; durable when it returns.
    /// - Throws: ``StoreError``.
    func put(profile: String, namespace: String, key: String, value: JSONValue) async throws

    /// Deletes the document at `key`, if any; durable when it returns.
    /// - Throws: ``StoreError``.
    func delete(profile: String, namespace: String, key: String) async throws

    /// The documents of a namespace whose keys start with `keyPrefix` (all when nil), ordered by
    /// key (byte order of the UTF-8 text).
    /// - Throws: ``StoreError``.
    func list(profile: String, namespace: String, keyPrefix: String?) async throws -> [StoredDocument]

    /// Atomic read-modify-write (PIN attempt counters, state machines): `transform` sees the
    /// current value (nil if absent) and returns the new one (nil deletes) plus a result to
    /// return. No other write to the store runs between the read and the write; durable when it
    /// returns. When `transform` throws, nothing changes and its error is rethrown.
    ///
    /// `transform` runs on the store's writer, so it must be quick, must not wait for anything,
    /// and must have no effect besides its return value (after a disk error it may run again).
    /// - Throws: ``StoreError``, or what `transform` throws.
    func update<R: Sendable>(
        profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (JSONValue?) throws -> (JSONValue?, R)
    ) async throws -> R

    /// Runs `body` as one atomic write in the next group commit and returns its result once that
    /// is on disk: every document it reads and writes through the ``StoreTransaction``, with no
    /// other write in between. When `body` throws, nothing it wrote is kept and its error is
    /// rethrown.
    ///
    /// `body` runs on the store's writer, so it must be quick, must not wait for anything, and
    /// must have no effect besides its return value (after a disk error it may run again).
    /// - Throws: ``StoreError``, or what `body` throws.
    func transaction<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any StoreTransaction) throws -> R
    ) async throws -> R

    /// Every document of the profile: `{namespace: {key: value}}`, namespaces and keys in order.
    /// - Throws: ``StoreError``.
    func export(profile: String) async throws -> JSONValue

    /// Deletes every document and idempotency key of the profile; durable when it returns.
    /// - Throws: ``StoreError``.
    func reset(profile: String) async throws

    /// The profiles that have documents or idempotency keys, in order.
    /// - Throws: ``StoreError``.
    func profiles() async throws -> [String]

    // The same operations on a document's JSON text, for the typed API (`StateStore+Typed.swift`):
    // a generated codec reads the stored bytes and writes the bytes stored, with no `JSONValue`
    // in between. The text given must be one JSON value (the codecs always write one).

    /// The JSON text of the document at `key`, or nil when there is none.
    /// - Throws: ``StoreError``.
    func getText(profile: String, namespace: String, key: String) async throws -> String?

    /// Stores the JSON text `text` at `key`; durable when it returns.
    /// - Throws: ``StoreError``.
    func putText(profile: String, namespace: String, key: String, text: String) async throws

    /// The keys and JSON texts of a namespace's documents, as ``list(profile:namespace:keyPrefix:)``.
    /// - Throws: ``StoreError``.
    func listText(profile: String, namespace: String, keyPrefix: String?) async throws -> [(key: String, text: String)]

    /// ``update(profile:namespace:key:_:)`` on the JSON text.
    /// - Throws: ``StoreError``, or what `transform` throws.
    func updateText<R: Sendable>(
        profile: String, namespace: String, key: String,
        _ transform: @escaping @Sendable (String?) throws -> (String?, R)
    ) async throws -> R
}
