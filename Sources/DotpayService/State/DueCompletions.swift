#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCStore
import PayRPCSync

/// When each profile's next `completesLater` payment is due, as far as this process knows: so
/// that a move of a sandbox clock looks at the store only when a payment of that profile may have
/// come due (the first move of a profile after a start looks once, to learn it).
///
/// The delayed completion itself is kept in the store (the payment's `completesAt`) and done in a
/// transaction that completes each payment once, whichever gateway does it. So that a gateway
/// knows of a payment armed through another one (which may have died since), the payment's
/// transaction publishes when it completes (``publish(profile:at:in:)``) and every gateway's
/// table hears it (``listen(to:)``).
final class DueCompletions: Sendable {
    /// The store's event channel of payments that complete later.
    static let channel = "dotpay.due"
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

    /// Publishes, in the transaction that stores it, that a payment of `profile` completes at `time`.
    /// - Throws: ``StoreError``.
    static func publish(profile: String, at time: Date, in documents: StoreTransaction) throws {
        let event = JSONValue.object([
            JSONValue.Member("profile", .string(profile)),
            JSONValue.Member("at", .string(String(time.timeIntervalSince1970))),
        ])
        try documents.publish(event, on: channel)
    }

    /// Learns of every payment that completes later stored from now on, through this gateway or
    /// any other on `store`, until the subscription is cancelled.
    func listen(to store: any StateStore) -> StoreSubscription {
        store.subscribe(Self.channel, as: JSONValue.self) { [self] event in
            guard let profile = event["profile"]?.stringValue, let at = event["at"]?.stringValue.flatMap(Double.init)
            else { return }
            add(profile: profile, at: Date(timeIntervalSince1970: at))
        }
    }
}
