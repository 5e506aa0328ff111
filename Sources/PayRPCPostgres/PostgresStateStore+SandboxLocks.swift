import Foundation
import PayRPCCore
import PayRPCSync
import PayRPCStore

/// The profiles' sandbox locks across the instances of one database
/// (``SandboxControls/enter(profile:method:changesControls:drawsUnderLock:)``): a session advisory lock
/// per profile, held on a connection of its own for as long as the call that took it runs, so the
/// call's transactions (and the profile locks they take after a conflict, ``PGProfileLocks``, in
/// another key space) never wait for it. An instance that dies releases its locks with its
/// connections.
extension PostgresStateStore: SandboxLockingStore {
    /// Shared with other instances: its own sandbox locks.
    public var sandboxLocking: (any SandboxLockingStore)? { self }

    public func sandboxLease(profile: String) async throws -> any SandboxLease {
        let store = self
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PGSandboxLease, any Error>) in
            // Waiting for the lock blocks a thread: one of its own (not the pool's, which the
            // holder needs, nor Dispatch's, whose few threads the holder's release needs).
            Self.onOwnThread {
                do {
                    // A connection whose lock statement fails (broken) is dropped, not kept.
                    let connection = try store.sandboxLockConnection()
                    try connection.execute(
                        "SELECT pg_advisory_lock(\(PGProfileLocks.sandboxSpace), hashtext($1))", [profile])
                    continuation.resume(returning: PGSandboxLease(store: store, connection: connection, profile: profile))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// A connection for a sandbox lock: an idle one, else a new one.
    private func sandboxLockConnection() throws(StoreError) -> PGConnection {
        if let idle = sandboxLockConnections.withLock({ $0.popLast() }) { return idle }
        return try PGConnection(url, applicationName: applicationName + " sandbox lock")
    }

    /// Releases `profile`'s lock held on `connection` and keeps the connection for the next lock
    /// (a few at most; a broken one is dropped with its session, and so with its lock).
    func releaseSandboxLock(_ profile: String, on connection: PGConnection) {
        do {
            try connection.execute("SELECT pg_advisory_unlock(\(PGProfileLocks.sandboxSpace), hashtext($1))", [profile])
        } catch {
            return
        }
        sandboxLockConnections.withLock { idle in
            if idle.count < Self.idleSandboxLockConnections { idle.append(connection) }
        }
    }

    /// Runs `body` on a thread of its own (a blocking libpq call that may wait for another
    /// instance as long as that one's call runs).
    static func onOwnThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "payrpc sandbox lock"
        thread.start()
    }

    /// How many connections of released sandbox locks are kept for the next ones.
    static let idleSandboxLockConnections = 4
}

/// A profile's sandbox lock held on a connection of the PostgreSQL store.
struct PGSandboxLease: SandboxLease {
    let store: PostgresStateStore
    let connection: PGConnection
    let profile: String

    func release() async {
        let store = self.store, connection = self.connection, profile = self.profile
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            PostgresStateStore.onOwnThread {
                store.releaseSandboxLock(profile, on: connection)
                continuation.resume()
            }
        }
    }
}
