import PayRPCStore
/// The locks a transaction takes on its next attempts after a serialization conflict: one
/// session advisory lock per profile it touched (`pg_advisory_lock(space, hashtext(profile))`),
/// taken in profile order before `BEGIN` (so before the attempt's snapshot) and released after its
/// end. Transactions that keep conflicting over one profile's documents then run one after
/// another, on every instance sharing the database, while the first attempt of every transaction
/// still takes no lock (no round trip is added where nothing conflicts). Two profiles with one
/// hash share a lock, which only serializes them.
enum PGProfileLocks {
    /// The first key of every profile lock, apart from ``PGPresence/lockSpace``.
    static let space: Int32 = 0x7072_6f66
    /// The first key of every profile's sandbox lock (held for a whole call, see
    /// `PostgresStateStore+SandboxLocks.swift`): apart from ``space``, since a call holding it
    /// may take its profile's lock here when one of its transactions conflicts.
    static let sandboxSpace: Int32 = 0x7362_6f78

    /// Takes the locks of `profiles` (sorted: every transaction takes them in one order), waiting
    /// for transactions of other connections that hold them.
    /// - Throws: ``StoreError`` (`unavailable` when the connection breaks, `conflict` when the
    ///   server finds a deadlock).
    static func lock(_ profiles: [String], on connection: PGConnection) throws(StoreError) {
        for profile in profiles {
            try connection.execute("SELECT pg_advisory_lock(\(space), hashtext($1))", [profile])
        }
    }

    /// Releases every advisory lock of the connection's session (a pool connection holds no
    /// other). A broken connection's locks went with its session.
    static func unlockAll(_ connection: PGConnection) {
        guard !connection.isBroken else { return }
        do {
            try connection.execute("SELECT pg_advisory_unlock_all()")
        } catch {
            // The connection broke meanwhile: the server released its locks with the session.
        }
    }
}
