import Foundation
import Logging
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore

/// The journal's pending network retries as durable timers, when several gateways share the store
/// (PostgreSQL): a retry that the gateway which armed it can no longer make (it died while waiting
/// or while the retry's POST was under way) is made once by another gateway when it is due.
///
/// A retry is armed in the transaction that records the failed try before it (``arm(_:in:)``):
/// that publishes it on the store's events, so every other gateway learns it (the entry, the
/// profile, the index of the try, when it is due) and waits for it on a task of its own. Who
/// makes it is decided by a claim of the retry's own key in the store's idempotency claims (the
/// same rows, in `SERIALIZABLE` transactions, that make a client's idempotency key run once on any
/// gateway): the gateway that armed it claims it at once and holds the claim until the retry's
/// outcome is recorded; a claim belongs to its gateway, and one whose gateway died (its presence
/// lock gone) is claimed anew. So a gateway whose wait ends claims the retry: claimed, it makes
/// it (resuming the entry's delivery at that try, with the waits after it) and completes the
/// claim; held by a live gateway, it looks again after ``recheck``; completed, it was made.
///
/// Why the idempotency claims and not the schema's `payrpc_timer` table: they have the claim
/// semantics this needs already (claimed once, owned by an instance, free again when the owner
/// died, answered "done" once completed), on both stores, under the store contract's tests;
/// the timer's time and payload travel in the event, and a gateway that starts later learns of
/// waiting entries by its resend at start-up, as on one instance. Real time here is the backoff
/// of a real network failure, so the waits are the process's own (not a profile's sandbox clock).
///
/// On the embedded store there is no other gateway: the journal makes no ``SharedRetries`` and its
/// retries cost nothing more.
final class SharedRetries: Sendable {
    /// The store's event channel of armed retries.
    static let channel = "journal.retries"
    /// The "method" of a retry's claim (never a client's: no method has this name).
    static let method = "journal.retry"
    /// How long a gateway waits before it looks again at a retry whose claim a live gateway holds.
    static let recheck: Duration = .seconds(1)
    /// How many times it looks before it leaves the entry to the next start or `journal.sync`.
    static let maximumRechecks = 600

    /// A retry armed: which try of which entry's POST, when, and the key of its claim.
    struct Timer: Sendable {
        var profile: String
        var entryId: String
        /// The index of the try (1: the first retry).
        var index: Int
        /// When it is due (milliseconds since 1970).
        var dueAt: Int64
        /// Its claim's key (unique to this arming).
        var key: String
    }

    /// Thrown when a retry this gateway armed was claimed by another one (this one seemed dead
    /// to the store for a moment): the other one goes on with the entry, this one stops.
    struct MadeElsewhere: Error {}

    let store: any StateStore
    let logger: Logger
    /// This gateway's mark on the retries it arms (its own events come back to it, and are passed over).
    let origin = String(UInt64.random(in: 0...UInt64.max), radix: 36)

    init(store: any StateStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// A new retry of `entryId`'s POST: try `index`, `wait` from now.
    func timer(entryId: String, profile: String, index: Int, after wait: Duration) -> Timer {
        let (seconds, attoseconds) = wait.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let key = "\(Self.method):\(entryId):\(index):\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        return Timer(profile: profile, entryId: entryId, index: index, dueAt: Self.now() + milliseconds, key: key)
    }

    /// Publishes `timer` in `transaction` (the one that records the failed try before it).
    /// - Throws: ``StoreError``.
    func arm(_ timer: Timer, in transaction: StoreTransaction) throws {
        let event = JSONValue.object([
            JSONValue.Member("origin", .string(origin)), JSONValue.Member("profile", .string(timer.profile)),
            JSONValue.Member("entryId", .string(timer.entryId)), JSONValue.Member("index", .int(timer.index)),
            JSONValue.Member("dueAt", .string(String(timer.dueAt))), JSONValue.Member("key", .string(timer.key)),
        ])
        try transaction.publish(event, on: Self.channel)
    }

    /// Claims `timer` for this gateway: whether it holds it now (a store error is logged: the
    /// retry goes on here, and another gateway may make it too, with the same idempotency key).
    func hold(_ timer: Timer) async -> Bool {
        do {
            return try await claim(timer) == .claimed
        } catch {
            logger.warning(
                "journal: a retry could not be claimed; it is made here, and perhaps by another gateway too",
                metadata: ["entryId": .string(timer.entryId), "error": .string("\(error)")])
            return true
        }
    }

    /// Records that `timer`'s retry was made (its outcome is recorded in the entry).
    func done(_ timer: Timer) async {
        do {
            try await store.complete(profile: timer.profile, key: timer.key, outcome: #""result":"retried""#)
        } catch {
            logger.warning(
                "journal: a retry made could not be marked so; another gateway may make it again when this one stops",
                metadata: ["entryId": .string(timer.entryId), "error": .string("\(error)")])
        }
    }

    /// Gives `timer` up unmade (this gateway stops delivering the entry before its retry): another
    /// gateway waiting for it makes it.
    func giveUp(_ timer: Timer) async {
        try? await store.abandon(profile: timer.profile, key: timer.key)
    }

    /// Waits for every retry another gateway arms and makes those that are left to be made, with
    /// `resume(timer)` (which resumes the entry's delivery at the timer's try and returns when it
    /// ends); the waits run on `runner`'s tasks.
    func listen(runner: DeliveryRunner, resume: @escaping @Sendable (Timer) async -> Void) {
        store.subscribe(Self.channel, as: JSONValue.self) { [self] event in
            guard event["origin"]?.stringValue != origin, let timer = Self.timer(from: event) else { return }
            runner.start { await self.watch(timer, resume: resume) }
        }
    }

    /// Waits until `timer` is due, then claims it until it is made (here, or by its gateway).
    private func watch(_ timer: Timer, resume: @escaping @Sendable (Timer) async -> Void) async {
        let wait = timer.dueAt - Self.now()
        if wait > 0 {
            do { try await Task.sleep(for: .milliseconds(wait)) } catch { return }
        }
        for _ in 0..<Self.maximumRechecks {
            let claim: IdempotencyClaim
            do {
                claim = try await self.claim(timer)
            } catch {
                logger.warning(
                    "journal: a retry armed by another gateway could not be claimed; the entry waits for the next start or journal.sync",
                    metadata: ["entryId": .string(timer.entryId), "error": .string("\(error)")])
                return
            }
            switch claim {
            case .claimed:
                logger.info(
                    "journal: made a retry whose gateway stopped before making it",
                    metadata: ["entryId": .string(timer.entryId), "journal.try": .stringConvertible(timer.index)])
                await resume(timer)
                await done(timer)
                return
            case .replay, .conflict:
                logger.debug(
                    "journal: a retry armed by another gateway was made there",
                    metadata: ["entryId": .string(timer.entryId), "journal.try": .stringConvertible(timer.index)])
                return
            case .inProgress:
                do { try await Task.sleep(for: Self.recheck) } catch { return }
            }
        }
    }

    private func claim(_ timer: Timer) async throws -> IdempotencyClaim {
        try await store.claim(profile: timer.profile, key: timer.key, method: Self.method, paramsDigest: timer.entryId)
    }

    private static func timer(from event: JSONValue) -> Timer? {
        guard let profile = event["profile"]?.stringValue, let entryId = event["entryId"]?.stringValue,
            case .number(let text)? = event["index"], let index = Int(text),
            let dueAt = event["dueAt"]?.stringValue.flatMap({ Int64($0) }),
            let key = event["key"]?.stringValue
        else { return nil }
        return Timer(profile: profile, entryId: entryId, index: index, dueAt: dueAt, key: key)
    }

    /// Real time, in milliseconds since 1970.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
