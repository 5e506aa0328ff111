#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PayRPCCore
import PayRPCStore
import PayRPCSync

/// An outbox's deliveries on a store that several gateways share (PostgreSQL): every try of every
/// item, its first as well as its retries, is owned by exactly one live gateway, and taken over by
/// a survivor when its owner dies.
///
/// Each try is a durable timer (``DeliveryTimer``) published on the store's events in a
/// transaction that is written anyway: the first try in the transaction that writes the item
/// (``arm(_:in:)`` with ``firstTry(item:profile:)``), so a gateway killed right after that commit,
/// before its first POST, is covered; each retry in the transaction that records the failed try
/// before it. Who makes a try is decided by a claim of the timer's own key in the store's
/// idempotency claims (the rows, in `SERIALIZABLE` transactions, that make a client's idempotency
/// key run once on any gateway): claimed once, owned by a gateway, free again when that gateway
/// died (its presence lock gone), answered "made" once completed. The transaction that arms a try
/// also claims it for its gateway (``StoreTransaction/claim(profile:key:method:paramsDigest:)``),
/// so no other gateway can take it between that commit and the try, however slow this one is; it
/// holds it until its outcome is recorded, and the transaction that records the outcome also
/// announces the try made, so every other gateway stops waiting for it at once.
/// A delivery run of an item (its steps, try after try) is also claimed, under the item's run key
/// (``runKey(_:)``), for as long as it runs: in the transaction that writes the item (``begin(_:in:)``),
/// or before a run that no write began (a resend at start-up, a `sync`, a try taken over) arms its
/// first try (``beginRun(item:profile:)``); such a run is not begun while another live gateway
/// runs the item, so a gateway that starts, or is asked to `sync`, while another delivers an item
/// never posts it a second time.
/// Why these claims and not a lease table (the schema's `payrpc_timer`, dropped): they have the
/// semantics already, on both stores, under the store contract's tests.
///
/// Every other gateway waits for each try on a task of its own, on real time (the backoff of a
/// real network, not a profile's sandbox clock): a first try ``firstTryGrace`` after it was armed,
/// a retry when it is due. Then it claims it: claimed (its gateway died), it
/// makes it with the same idempotency key and the waits after it, as the item's own delivery
/// resumed at that try; made, it stops; held by a live gateway, it looks again after
/// ``patience`` (when a live holder's try must have ended), at most ``maximumLooks`` times. A
/// waiter that missed the "made" event finds the claim completed when it looks.
///
/// Costs, PostgreSQL only: one `NOTIFY` per try armed and one per try made (in transactions that
/// are written anyway), one claim and one completion per try on its gateway, one claim per try on
/// each other gateway only when its owner did not announce it made in time. On the embedded store
/// there is no other gateway: an outbox makes no ``SharedDeliveries`` and pays nothing.
public final class SharedDeliveries: Sendable {
    /// The store's event channel of the tries armed and made, of every outbox.
    public static let channel = "outbox.tries"
    /// The "method" of a try's claim (never a client's: no method has this name).
    static let method = "outbox.try"
    /// The "method" of the claim of an item's delivery run.
    static let runMethod = "outbox.run"
    /// The "method" of the lease of a profile's resend at start-up.
    static let resendMethod = "outbox.resend"
    /// How long the other gateways leave a first try to the gateway that wrote the item before
    /// they first look at its claim (the time that gateway's POST takes to begin).
    public static let firstTryGrace: Duration = .seconds(2)
    /// How many times a gateway looks at a try that a live gateway holds before it leaves the
    /// item to the next start or a `sync`.
    static let maximumLooks = 60

    let store: any StateStore
    /// The outbox's namespace.
    public let outbox: String
    let logger: Logger
    /// How long a live gateway may take to record a try it holds: its POST's timeout and a second.
    let patience: Duration
    /// This gateway's mark on the events it publishes.
    let origin = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    /// The waits for other gateways' tries, by claim key: a "made" event ends its wait.
    private let waits = Lock([String: Task<Void, Never>]())

    /// The deliveries of the outbox `outbox` in `store`, whose POSTs time out after `tryTimeout`.
    public init(store: any StateStore, outbox: String, tryTimeout: TimeInterval, logger: Logger) {
        self.store = store
        self.outbox = outbox
        self.logger = logger
        self.patience = .milliseconds(Int64(tryTimeout * 1000) + 1000)
    }

    /// The first try of the item's first delivery: its claim key is the item's own (so the
    /// transaction that writes the item and the delivery after its commit name the same claim).
    public func firstTry(item: String, profile: String) -> DeliveryTimer {
        DeliveryTimer(
            origin: origin, outbox: outbox, profile: profile, item: item, index: 0,
            dueAt: Self.dueAt(after: Self.firstTryGrace), claim: "\(outbox):\(item):first")
    }

    /// A new try of the item: try `index`, `wait` from now, under a claim key of its own.
    public func timer(item: String, profile: String, index: Int, after wait: Duration) -> DeliveryTimer {
        let key = "\(outbox):\(item):\(index):\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        return DeliveryTimer(
            origin: origin, outbox: outbox, profile: profile, item: item, index: index, dueAt: Self.dueAt(after: wait),
            claim: key)
    }

    /// `wait` from now, in milliseconds since 1970 (a timer's `dueAt`).
    private static func dueAt(after wait: Duration) -> Int64 {
        let (seconds, attoseconds) = wait.components
        return now() + seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Begins the delivery run of `first`'s item in `transaction`, the one that writes the item:
    /// claims the run and arms `first` (the item's ``firstTry(item:profile:)``) for this gateway,
    /// which holds both from the commit on.
    /// - Throws: ``StoreError``.
    public func begin(_ first: DeliveryTimer, in transaction: StoreTransaction) throws {
        try transaction.claim(profile: first.profile, key: runKey(first.item), method: Self.runMethod, paramsDigest: first.item)
        try arm(first, in: transaction)
    }

    /// The claim key of `item`'s delivery run.
    func runKey(_ item: String) -> String { "\(outbox):\(item):run" }

    /// Claims a run of `item` that no write of it began: false, and nothing claimed, when another
    /// live gateway runs it (it makes every try of it) or the claim cannot be made (logged; the
    /// item waits for the next start or `sync`).
    func beginRun(item: String, profile: String) async -> Bool {
        do {
            let claimed = try await store.claim(
                profile: profile, key: runKey(item), method: Self.runMethod, paramsDigest: item)
            if claimed != .claimed {
                logger.debug(
                    "an item another gateway is delivering is left to it",
                    metadata: ["outbox": .string(outbox), "outbox.key": .string(item)])
            }
            return claimed == .claimed
        } catch {
            logger.warning(
                "a delivery could not be claimed; the item waits for the next start or sync",
                metadata: ["outbox": .string(outbox), "outbox.key": .string(item), "error": .string("\(error)")])
            return false
        }
    }

    /// Ends this gateway's run of `item` (another may begin one from now on).
    func endRun(item: String, profile: String) async {
        do {
            try await store.abandon(profile: profile, key: runKey(item))
        } catch {
            logger.warning(
                "a delivery's end could not be recorded; other gateways leave the item to this one until it stops",
                metadata: ["outbox": .string(outbox), "outbox.key": .string(item), "error": .string("\(error)")])
        }
    }

    /// Publishes `timer` armed in `transaction`, and claims it there for this gateway: it holds
    /// the try from the commit on.
    /// - Throws: ``StoreError``.
    public func arm(_ timer: DeliveryTimer, in transaction: StoreTransaction) throws {
        try transaction.claim(profile: timer.profile, key: timer.claim, method: Self.method, paramsDigest: timer.item)
        try transaction.publish(timer, on: Self.channel)
    }

    /// Publishes `timer` made in `transaction` (the one that records its outcome).
    /// - Throws: ``StoreError``.
    func announceMade(_ timer: DeliveryTimer, in transaction: StoreTransaction) throws {
        var made = timer
        made.origin = origin
        made.made = true
        try transaction.publish(made, on: Self.channel)
    }

    /// Arms `timer` in a transaction of its own (a delivery that no write of the item began: a
    /// resend, a `sync`).
    /// - Throws: ``StoreError``.
    func arm(_ timer: DeliveryTimer) async throws {
        try await store.transaction(outbox + ".armTry") { [self] transaction in try arm(timer, in: transaction) }
    }

    /// Records that `timer`'s try was made (its outcome is recorded in the item).
    func complete(_ timer: DeliveryTimer) async {
        do {
            try await store.complete(profile: timer.profile, key: timer.claim, outcome: #""result":"made""#)
        } catch {
            logger.warning(
                "a delivery try made could not be marked so; another gateway may make it again when this one stops",
                metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item), "error": .string("\(error)")])
        }
    }

    /// Gives `timer` up unmade (this gateway stops before its try): a gateway waiting for it makes it.
    func giveUp(_ timer: DeliveryTimer) async {
        do {
            try await store.abandon(profile: timer.profile, key: timer.claim)
        } catch {
            logger.warning(
                "a delivery try given up could not be released; another gateway makes it when this one stops",
                metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item), "error": .string("\(error)")])
        }
    }

    /// Runs `body` as the profile's one resend at start-up among the gateways: false, without
    /// running it, when another live gateway is resending the profile's items (each try of which
    /// it arms, so its death is covered); the lease is released when `body` ends.
    func leadingResend(profile: String, _ body: () async throws -> Void) async throws -> Bool {
        let key = "\(outbox):resend"
        switch try await store.claim(profile: profile, key: key, method: Self.resendMethod, paramsDigest: outbox) {
        case .claimed:
            let lease = DeliveryTimer(
                origin: origin, outbox: outbox, profile: profile, item: "", index: 0, dueAt: 0, claim: key)
            do { try await body() } catch {
                await giveUp(lease)
                throw error
            }
            await giveUp(lease)
            return true
        case .inProgress, .conflict, .replay:
            return false
        }
    }

    /// Waits for every try another gateway arms in this outbox and makes those left to be made
    /// with `resume` (which delivers the item from the timer's try, holding its claim, and returns
    /// when the delivery ends); the waits run on `runner`'s tasks. Until the subscription is cancelled.
    public func listen(runner: DeliveryRunner, resume: @escaping @Sendable (DeliveryTimer) async -> Void)
        -> StoreSubscription
    {
        store.subscribe(Self.channel, as: DeliveryTimer.self) { [self] timer in
            guard timer.outbox == outbox, timer.origin != origin else { return }
            if timer.made {
                if let wait = waits.withLock({ $0.removeValue(forKey: timer.claim) }) {
                    wait.cancel()
                    logger.debug(
                        "a delivery try armed by another gateway was made there",
                        metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item)])
                }
                return
            }
            waits.withLock { running in
                running[timer.claim] = runner.start { [self] in
                    await watch(timer, resume: resume)
                    _ = waits.withLock { $0.removeValue(forKey: timer.claim) }
                }
            }
        }
    }

    /// Waits until `timer` is due, then claims it until it is made (here, or by its gateway).
    private func watch(_ timer: DeliveryTimer, resume: @escaping @Sendable (DeliveryTimer) async -> Void) async {
        let wait = timer.dueAt - Self.now()
        if wait > 0 {
            do { try await Task.sleep(for: .milliseconds(wait)) } catch { return }
        }
        for _ in 0..<Self.maximumLooks {
            let found: IdempotencyClaim
            do {
                found = try await claim(timer)
            } catch {
                logger.warning(
                    "a delivery try armed by another gateway could not be claimed; the item waits for the next start or sync",
                    metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item), "error": .string("\(error)")])
                return
            }
            switch found {
            case .claimed:
                // Made here: no "made" event of another gateway may cancel it now.
                _ = waits.withLock { $0.removeValue(forKey: timer.claim) }
                logger.info(
                    "made a delivery try whose gateway stopped before making it",
                    metadata: [
                        "outbox": .string(outbox), "outbox.key": .string(timer.item),
                        "outbox.try": .stringConvertible(timer.index),
                    ])
                await resume(timer)
                return
            case .replay, .conflict:
                logger.debug(
                    "a delivery try armed by another gateway was made there",
                    metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item)])
                return
            case .inProgress:
                do { try await Task.sleep(for: patience) } catch { return }
            }
        }
        logger.warning(
            "a delivery try held by another live gateway was not made in time; the item waits for the next start or sync",
            metadata: ["outbox": .string(outbox), "outbox.key": .string(timer.item)])
    }

    private func claim(_ timer: DeliveryTimer) async throws -> IdempotencyClaim {
        try await store.claim(profile: timer.profile, key: timer.claim, method: Self.method, paramsDigest: timer.item)
    }

    /// Real time, in milliseconds since 1970.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
