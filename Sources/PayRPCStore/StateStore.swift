import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox

/// Where services keep their state: documents scoped by profile, then namespace, then key, read
/// and written only inside transactions.
///
/// The whole of what a service can do with it is ``transaction(_:_:)`` (read and write) and
/// ``read(_:_:)`` (a consistent read), each handing the body a typed view of the documents
/// (``StoreTransaction``, ``StoreReader``) that reads and writes the project's generated models.
/// A change that touches two documents is one transaction. Two implementations: the embedded
/// SQLite store (``SQLiteStateStore``) and the PostgreSQL store several gateways share
/// (``PostgresStateStore``); no service sees GRDB or libpq types, and both pass the same contract
/// suite (`StoreContract` in the test support). Operators' tools (export, reset) are
/// ``StoreAdministration``, which services are not given.
///
/// A namespace is the name of a service or of one of its collections (`tatra`, `pbba.requests`,
/// `dotpay.cards`); a key is the document's id within it. Secrets go in only masked or hashed
/// (see ``SecretHasher``).
public protocol StateStore: IdempotencyStore, Sendable {
    /// Runs `body` as one atomic write and returns its result once that is durable: every
    /// document it reads and writes through the ``StoreTransaction``, with no other write in
    /// between. When `body` throws, nothing it wrote is kept and its error is rethrown.
    ///
    /// `body` may run on the store's writer, so it must be quick, must not wait for anything, and
    /// must have no effect besides its return value (after a disk error it may run again).
    /// - Parameter operation: what the write is for, for logs and errors (`dotpay.registerCard`).
    /// - Throws: ``StoreError``, or what `body` throws.
    func transaction<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreTransaction) throws -> R
    ) async throws -> R

    /// Runs `body` on one consistent view of the documents (no write is seen half done) and
    /// returns its result. Reads only; `body` must be quick.
    /// - Throws: ``StoreError``, or what `body` throws.
    func read<R: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (StoreReader) throws -> R
    ) async throws -> R

    /// Calls `handler` with the payload of every event a committed transaction published on
    /// `channel` (``StoreTransaction/publish(_:on:)``), once each, after the commit: on this process
    /// only for an embedded store, on every instance for a shared one (so a change made through
    /// one instance reaches the connections of another). Handlers run on the store's thread or the
    /// committing caller's; they must be quick and hand longer work on. Until the subscription
    /// returned is cancelled.
    func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription

    /// This store as a ``SandboxLockingStore`` when instances share it, else nil (the default).
    /// Asked rather than cast: a failing `as? any SandboxLockingStore` scans every protocol
    /// conformance record of the binary, on every start of a SQLite gateway (docs/benchmarks.md).
    var sandboxLocking: (any SandboxLockingStore)? { get }
}

/// What operators and the gateway do with a store, beyond a service's transactions: export a
/// profile, reset it (`sandbox.reset`), list the profiles.
public protocol StoreAdministration: Sendable {
    /// Every document of the profile: `{namespace: {key: value}}`, namespaces and keys in order.
    /// - Throws: ``StoreError``.
    func export(profile: String) async throws -> JSONValue

    /// Deletes every document and idempotency key of the profile; durable when it returns.
    /// - Throws: ``StoreError``.
    func reset(profile: String) async throws

    /// The profiles that have documents or idempotency keys, in order.
    /// - Throws: ``StoreError``.
    func profiles() async throws -> [String]

    /// Runs `body` on one consistent read, synchronously: for state the server restores while it
    /// starts (each profile's sandbox controls), when nothing else runs yet.
    /// - Throws: ``StoreError``, or what `body` throws.
    func readAtStartUp<R>(_ body: (StoreReader) throws -> R) throws -> R

    /// Finishes what was committed and closes the store: the last step of a gateway's shutdown;
    /// calls after it fail with a ``StoreError`` (closed).
    /// - Throws: ``StoreError`` when the last writes cannot be finished.
    func close() async throws
}

extension StoreAdministration {
    /// Every profile's stored sandbox state (``SandboxControls/restore(_:)`` takes it), read at
    /// start-up. A document that does not read is left out and logged.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func sandboxStatesAtStartUp(logger: Logger) throws -> [String: StoredSandboxState] {
        try readAtStartUp { try SandboxDocuments.load(from: $0, logger: logger) }
    }
}

extension StateStore {
    /// Not shared with other instances: no sandbox locks.
    public var sandboxLocking: (any SandboxLockingStore)? { nil }

    /// Calls `handler` with every event published on `channel` as an `Event`
    /// (``StoreTransaction/publish(_:on:)-(Event,_)``), as ``subscribe(_:_:)`` does; a payload
    /// that does not read as one (written by another version of payrpc) is passed over.
    public func subscribe<Event: JSONDecodable>(
        _ channel: String, as event: Event.Type, _ handler: @escaping @Sendable (Event) -> Void
    ) -> StoreSubscription {
        subscribe(channel) { payload in
            guard let event = try? DocumentCoding.decode(Event.self, from: payload, namespace: "event", key: channel)
            else { return }
            handler(event)
        }
    }
}
