import PayRPCCore
import PayRPCSync
import Synchronization

/// The sandbox controls on a store other gateways share (PostgreSQL): each call reads its
/// profile's documents first, and the calls that change them hold the profile's lock across gateways.
extension SandboxControls {
    /// Readies the profile's state for a call of `method` on a store other gateways share: reads
    /// the profile's documents (what a call through another gateway changed) and, for a call that
    /// may change them, takes the profile's lock across gateways and reads them again under it.
    /// The call then runs with ``lockedProfile`` set and saves what it changed before
    /// ``exit(_:)`` lets the lock go.
    ///
    /// The calls that lock: those that change the controls (`changesControls`: the clock, armed
    /// failures, a reset), every call of a seeded profile (but those the caller says need not,
    /// `drawsUnderLock` false: a call that another call of the profile waits for, holding the
    /// lock, must not wait for it in turn) (its draws: a profile's seeded calls run one at a time across
    /// gateways, each from the stream positions the last one saved, so ids never repeat and follow
    /// the order one gateway would draw them in; a lock rather than an optimistic check of the
    /// stored positions, since a handler's draws cannot be taken back once it has acted on them),
    /// and a call of a method with a failure armed (taken under the lock, so exactly once).
    /// - Returns: the held lock, nil when the call needs none (or the store is not shared).
    /// - Throws: the store's error; nothing is held then.
    public func enter(profile: String, method: String, changesControls: Bool, drawsUnderLock: Bool) async throws
        -> (any SandboxLease)?
    {
        guard isShared, let persistence else { return nil }
        try await refresh(profile, from: persistence)
        let locks =
            changesControls || (drawsUnderLock && seed(profile: profile) != nil)
            || state.withLock { $0.profiles[profile]?.failures[method]?.isEmpty == false }
        guard locks else { return nil }
        // One call of this gateway at a time asks the store for the profile's lock: the others
        // wait here, holding no connection.
        await takeTurn(profile)
        let lease: any SandboxLease
        do {
            lease = try await persistence.lock(profile: profile)
        } catch {
            passTurn(profile)
            throw error
        }
        do {
            try await refresh(profile, from: persistence)
        } catch {
            await exit(lease, profile: profile)
            throw error
        }
        return lease
    }

    /// The rest of `rpc.hello` on a store other gateways share. The seed the call set (`changed`) was
    /// set in this gateway's memory on the loop thread, so the connection's next calls draw from it
    /// at once; it is saved here under the profile's lock, so that a call of another gateway that
    /// holds the lock and saves its draws cannot write over it, nor it over theirs. Either way the
    /// profile's documents are read first: the answer's seed is the one in force across gateways
    /// (set through any of them), not what this gateway last saw.
    /// - Returns: the seed in force for the profile.
    /// - Throws: the store's error; the seed stays unsaved then (and the call is answered with the error).
    public func settleSeed(profile: String, changed: Bool) async throws -> UInt64? {
        guard
            let lease = try await enter(
                profile: profile, method: "rpc.hello", changesControls: changed, drawsUnderLock: false)
        else { return seed(profile: profile) }
        do {
            try await SandboxLock.$profile.withValue(profile) { try await saveChanges() }
        } catch {
            await exit(lease, profile: profile)
            throw error
        }
        await exit(lease, profile: profile)
        return seed(profile: profile)
    }

    /// Releases the lock ``enter(profile:method:changesControls:drawsUnderLock:)`` took, after the
    /// call saved its changes.
    public func exit(_ lease: any SandboxLease, profile: String) async {
        await lease.release()
        passTurn(profile)
    }

    /// Waits until no other call of this gateway holds or takes the profile's lock.
    private func takeTurn(_ profile: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.locked[profile] != nil else {
                    state.locked[profile] = []
                    return true
                }
                state.locked[profile]?.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Gives the profile's turn to the next call of this gateway waiting for it.
    private func passTurn(_ profile: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var waiting = state.locked[profile], !waiting.isEmpty else {
                state.locked[profile] = nil
                return nil
            }
            let next = waiting.removeFirst()
            state.locked[profile] = waiting
            return next
        }
        next?.resume()
    }

    /// Takes in the profile's stored documents, unless a read that started later or a save was
    /// taken in meanwhile; a document with unsaved changes of this gateway keeps them.
    private func refresh(_ profile: String, from persistence: any SandboxPersistence) async throws {
        let ticket = tickets.add(1, ordering: .relaxed).newValue
        let stored = ProfileState(try await persistence.load(profile: profile), profile: profile, serverSeed: serverSeed)
        let (armedChange, clockMoved) = state.withLock { state -> (Int, Bool) in
            var current = state.profiles[profile] ?? ProfileState()
            guard ticket > current.refreshedAt else { return (0, false) }
            let armedBefore = current.armedCount
            let moved = current.takeIn(stored)
            current.refreshedAt = ticket
            state.profiles[profile] = current
            return (current.armedCount - armedBefore, moved)
        }
        if armedChange > 0 { activity.armedCount.add(armedChange, ordering: .relaxed) }
        if armedChange < 0 { activity.armedCount.subtract(-armedChange, ordering: .relaxed) }
        if clockMoved { _ = clockChanged(profile) }
    }
}
