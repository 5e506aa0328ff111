#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCSync

/// When each profile's next `completesLater` payment is due, as far as this process knows: so
/// that a move of a sandbox clock looks at the store only when a payment of that profile may have
/// come due (the first move of a profile after a start looks once, to learn it).
final class DueCompletions: Sendable {
    private struct Known {
        /// The earliest time a payment completes; nil when none waits.
        var next: Date?
        /// Counts the payments added, so that a look that began before one was added does not
        /// forget it.
        var added: UInt64 = 0
    }

    /// Per profile; a profile not in the table is not known yet.
    private let known = Lock<[String: Known]>([:])

    /// Whether a payment of `profile` may complete at `now` (or nothing is known of it yet).
    func mayBeDue(profile: String, at now: Date) -> Bool {
        known.withLock { known in
            guard let profileKnown = known[profile] else { return true }
            return profileKnown.next.map { $0 <= now } ?? false
        }
    }

    /// A payment of `profile` completes at `time`.
    func add(profile: String, at time: Date) {
        known.withLock { known in
            var profileKnown = known[profile] ?? Known()
            profileKnown.next = min(profileKnown.next ?? time, time)
            profileKnown.added += 1
            known[profile] = profileKnown
        }
    }

    /// Where a look at the store begins: pass it to ``set(profile:next:since:)``.
    func mark(profile: String) -> UInt64 { known.withLock { $0[profile]?.added ?? 0 } }

    /// What a look at the store that began at `mark` found: the earliest time a payment of
    /// `profile` still completes. A payment added since is kept.
    func set(profile: String, next time: Date?, since mark: UInt64) {
        known.withLock { known in
            var profileKnown = known[profile] ?? Known()
            if profileKnown.added == mark {
                profileKnown.next = time
            } else if let time {
                profileKnown.next = min(profileKnown.next ?? time, time)
            }
            known[profile] = profileKnown
        }
    }
}
