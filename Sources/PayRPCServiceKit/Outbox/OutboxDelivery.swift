import PayRPCCore
import Logging
import PayRPCStore
import PayRPCSync

/// What delivers a service's outbox: the service writes how one item is sent
/// (``send(_:profile:from:claims:)``, each step recorded in the item); when and how often comes
/// from here, the same for every service: one delivery per item at a time (a second trigger joins
/// the running one), a resend of the waiting items on request and at start-up, and a step that
/// cannot be recorded stops the delivery and is logged (the item waits for the next try with what
/// was recorded).
///
/// On a store that several gateways share (``shared``), every try of every delivery is owned by
/// one live gateway and taken over by a survivor when that one dies (``SharedDeliveries``): a
/// delivery begun by a write of the item holds the run and the first try that write claimed; any
/// other (a resend, a `sync`) claims the run, leaving the item to a live gateway that runs it,
/// and arms its first try in a transaction of its own; the profile's resend at start-up runs on
/// one gateway at a time; ``takeOver()`` makes the tries of dead gateways.
public protocol OutboxDelivery: AnyObject, Sendable {
    /// What the outbox holds.
    associatedtype Item: OutboxItem
    /// The items.
    var outbox: Outbox<Item> { get }
    /// The deliveries running, one per item.
    var runner: DeliveryRunner { get }
    /// Where a delivery that cannot be recorded is reported.
    var logger: Logger { get }
    /// The tries across gateways, when gateways share the store (nil: this one alone).
    var shared: SharedDeliveries? { get }
    /// One delivery of the item `key`: its remaining steps, each recorded in the item, and the
    /// failures told to the profile's connections. Its first POST begins at its try `first` (a
    /// try taken over from another gateway); `claims` (shared store only) are passed to
    /// ``DeliveryRetry`` and publish in the transactions that record the tries.
    /// - Throws: the store's error when a step cannot be recorded.
    func send(_ key: String, profile: String, from first: Int, claims: DeliveryClaims?) async throws
}

extension OutboxDelivery {
    /// Starts delivering the item `key` (or joins the delivery already running) and returns its
    /// task. `armed`: the first try that the transaction which wrote the item armed with its run
    /// (shared store; ``SharedDeliveries/begin(_:in:)``); without it, a shared store's delivery
    /// claims the run and arms its own.
    @discardableResult
    public func deliver(_ key: String, profile: String, armed: DeliveryTimer? = nil) -> Task<Void, Never> {
        runner.run(Self.runKey(key, profile)) { [self] in await self.deliverNow(key, profile: profile, armed: armed) }
    }

    /// Delivers every item of the profile not delivered yet (of `keys`, when given), oldest first,
    /// each in a try that starts after this call, and waits for them.
    /// - Returns: the items tried, as they are now.
    /// - Throws: ``StoreError`` when the outbox cannot be read.
    public func deliverWaiting(profile: String, among keys: Set<String>? = nil) async throws -> [Item] {
        let waiting = try await outbox.items(profile: profile).filter { item in
            !item.isDelivered && keys.map { $0.contains(item.outboxKey) } ?? true
        }
        var tried: [Item] = []
        for item in waiting {
            let key = item.outboxKey
            await runner.runAfterCurrent(Self.runKey(key, profile)) { [self] in
                await self.deliverNow(key, profile: profile, armed: nil)
            }
            if let now = try await outbox.item(key, profile: profile) { tried.append(now) }
        }
        return tried
    }

    /// The items not delivered when the gateway starts, by profile: what ``resendAll(_:)`` sends.
    /// Read in the service's ``GatewayService/run()`` before it says it has started, so before the
    /// gateway serves: an item a call writes after that has a delivery of its own, which the resend
    /// does not repeat (read later, the resend would send again an entry a call had just left
    /// waiting). An outbox that cannot be read is logged, and nothing is resent.
    public func waitingAtStartUp() async -> [String: Set<String>] {
        do {
            var waiting: [String: Set<String>] = [:]
            for profile in try await outbox.profiles() {
                let keys = try await outbox.items(profile: profile).filter { !$0.isDelivered }.map(\.outboxKey)
                if !keys.isEmpty { waiting[profile] = Set(keys) }
            }
            return waiting
        } catch {
            logger.error(
                "the outbox waiting at start-up could not be read",
                metadata: ["outbox": .string(Item.namespace), "error": .string("\(error)")])
            return [:]
        }
    }

    /// At start-up: the items ``waitingAtStartUp()`` found, of those still not delivered (on a
    /// shared store, each profile's by one gateway at a time: a gateway that finds another
    /// resending them leaves them to it).
    public func resendAll(_ waiting: [String: Set<String>]) async {
        for (profile, keys) in waiting.sorted(by: { $0.key < $1.key }) {
            do {
                if let shared {
                    let led = try await shared.leadingResend(profile: profile) {
                        _ = try await deliverWaiting(profile: profile, among: keys)
                    }
                    logger.debug(
                        led
                            ? "start-up resend of a profile: made here"
                            : "start-up resend of a profile: another gateway makes it",
                        metadata: ["outbox": .string(Item.namespace), "profile": .string(profile)])
                } else {
                    _ = try await deliverWaiting(profile: profile, among: keys)
                }
            } catch {
                logger.error(
                    "the outbox waiting at start-up could not be read",
                    metadata: [
                        "outbox": .string(Item.namespace), "profile": .string(profile), "error": .string("\(error)"),
                    ])
            }
        }
    }

    /// On a shared store: makes the tries that other gateways armed and left unmade (they died),
    /// each resuming its item's delivery at that try, until the subscription is cancelled (one
    /// that does nothing on a store this gateway alone uses).
    public func takeOver() -> StoreSubscription {
        guard let shared else { return .none }
        return shared.listen(runner: runner) { [self] timer in
            let ran = Lock(false)
            await runner.run(Self.runKey(timer.item, timer.profile)) { [self] in
                ran.withLock { $0 = true }
                // A live gateway runs the item (it gave this try up as it stopped a run): its run goes on.
                guard await shared.beginRun(item: timer.item, profile: timer.profile) else {
                    return await shared.giveUp(timer)
                }
                let claims = DeliveryClaims(shared: shared, item: timer.item, profile: timer.profile, holding: timer)
                await self.sendLogging(timer.item, profile: timer.profile, from: timer.index, claims: claims)
            }.value
            // Joined a delivery of the item already running here: that one goes on with it.
            if !ran.withLock({ $0 }) { await shared.giveUp(timer) }
        }
    }

    private static func runKey(_ key: String, _ profile: String) -> String { profile + "\u{0}" + key }

    /// One delivery of the item: on a shared store under the claim of its first try.
    private func deliverNow(_ key: String, profile: String, armed: DeliveryTimer?) async {
        guard let shared else { return await sendLogging(key, profile: profile, from: 0, claims: nil) }
        var first = armed
        if first == nil {
            guard await shared.beginRun(item: key, profile: profile) else { return }
            let timer = shared.timer(item: key, profile: profile, index: 0, after: SharedDeliveries.firstTryGrace)
            do {
                try await shared.arm(timer)
                first = timer
            } catch {
                logUnrecorded(key, error)
                return await shared.endRun(item: key, profile: profile)
            }
        }
        guard let first else { return }
        let claims = DeliveryClaims(shared: shared, item: key, profile: profile, holding: first)
        await sendLogging(key, profile: profile, from: 0, claims: claims)
    }

    private func sendLogging(_ key: String, profile: String, from first: Int, claims: DeliveryClaims?) async {
        var finished = false
        // The call journal records the delivery's exchanges under its profile, linked to the call
        // that queued it when it runs on from that call's task.
        let scope = CallScope(profile: profile, call: CallScope.current?.call, work: "delivery")
        do {
            try await CallScope.$current.withValue(scope) {
                try await send(key, profile: profile, from: first, claims: claims)
            }
            finished = !Task.isCancelled
        } catch {
            logUnrecorded(key, error)
        }
        await claims?.end(finished: finished)
    }

    private func logUnrecorded(_ key: String, _ error: any Error) {
        logger.error(
            "a delivery step could not be recorded; the item waits for the next try",
            metadata: [
                "outbox": .string(Item.namespace), "outbox.key": .string(key), "error": .string("\(error)"),
            ])
    }
}
