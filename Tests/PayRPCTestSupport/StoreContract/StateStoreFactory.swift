import PayRPCStore

/// Makes the stores a ``StoreContract`` runs against: one implementation of ``StateStore`` (the
/// SQLite store today, a PostgreSQL store later) and the ways its life can end.
public protocol StateStoreFactory: Sendable {
    /// The store made.
    associatedtype Store: StateStore & StoreAdministration

    /// A new, empty store; with `maximumBytes`, one that refuses writes that would grow it past
    /// that many bytes.
    /// - Throws: when the store cannot be made.
    func makeStore(maximumBytes: Int64?) async throws -> Store

    /// The store a new process opens after the process that used `store` died without closing it
    /// (SIGKILL, power loss) at this moment. `store` is of no further use afterwards.
    /// - Throws: when the store cannot be reopened.
    func reopenAfterCrash(_ store: Store) async throws -> Store

    /// Closes a store made by this factory and removes what it kept.
    /// - Throws: when closing fails.
    func discard(_ store: Store) async throws
}
