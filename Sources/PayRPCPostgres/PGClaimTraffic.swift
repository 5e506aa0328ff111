import PayRPCStore
/// Which idempotency keys this instance is claiming, or running a call under the claim of, and
/// which stale claims of its own it is abandoning: so that abandoning a claim a failed call left
/// in progress (``PostgresStateStore/pendingAbandons``) never deletes a claim that another of its
/// calls has just made for the same key and runs under, which would let a third run it again.
///
/// A claim of a key waits for nothing: while a stale claim of the key is being abandoned it is
/// answered "in use", as it would be a moment earlier; an abandon waits for the key's claims to end.
struct PGClaimTraffic: Sendable {
    /// A profile's idempotency key.
    struct Key: Hashable, Sendable {
        let profile: String
        let key: String
    }

    /// Claims being made or run, by key.
    private var active: [Key: Int] = [:]
    private var abandoning: Set<Key> = []

    /// A claim of `key` starts; false (and nothing starts) while a stale claim of it is being
    /// abandoned.
    mutating func enter(_ key: Key) -> Bool {
        guard !abandoning.contains(key) else { return false }
        active[key, default: 0] += 1
        return true
    }

    /// A claim of `key` ended: it was not granted, or its call completed or abandoned it.
    mutating func leave(_ key: Key) {
        guard let count = active[key] else { return }
        active[key] = count > 1 ? count - 1 : nil
    }

    /// Whether a stale claim of `key` may be abandoned now (no claim of it is being made or run);
    /// when true, claims of it are answered "in use" until ``abandoned(_:)``.
    mutating func startAbandoning(_ key: Key) -> Bool {
        guard active[key] == nil else { return false }
        abandoning.insert(key)
        return true
    }

    /// The abandon of a stale claim of `key` is over.
    mutating func abandoned(_ key: Key) {
        abandoning.remove(key)
    }
}
