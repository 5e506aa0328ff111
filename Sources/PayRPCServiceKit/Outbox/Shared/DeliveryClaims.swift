import PayRPCStore
import PayRPCSync

/// The claims of one delivery run of an outbox item on a shared store (``SharedDeliveries``): the
/// run's own, the try it holds, announced made in the transaction that records its outcome, and the next try it
/// arms and claims in the same transaction.
///
/// ``DeliveryRetry`` drives it try by try (``afterTry(_:index:backoff:then:)``, asked through the
/// ``TryRecording`` it hands the service, then ``recorded()``); a service arms the first try of
/// its next POST (the second POST of a journal entry) with
/// ``TryRecording/publishing(thenArming:)`` in the transaction that records the answer before it.
/// The kit's ``OutboxDelivery`` ends the run with ``end()``.
public final class DeliveryClaims: Sendable {
    private struct State {
        /// The try this run holds (claimed), if any.
        var held: DeliveryTimer?
        /// Announced made in the last recording transaction: completed by ``recorded()``.
        var made: DeliveryTimer?
        /// Armed (and claimed) in the last recording transaction: held once ``recorded()``.
        var armed: DeliveryTimer?
    }

    /// The outbox's shared deliveries.
    public let shared: SharedDeliveries
    let item: String
    let profile: String
    private let state: Lock<State>

    /// The claims of a run of `item` that holds `held` (claimed already, or nil).
    init(shared: SharedDeliveries, item: String, profile: String, holding held: DeliveryTimer?) {
        self.shared = shared
        self.item = item
        self.profile = profile
        self.state = Lock(State(held: held))
    }

    /// What the transaction that records the outcome of try `index` publishes: the held try
    /// made, and after a failure with tries left, the next try armed, `backoff[index]` from now;
    /// else `then` armed (the first try of the item's next POST), if any.
    func afterTry(
        _ failed: Bool, index: Int, backoff: [Duration], then: (index: Int, wait: Duration)?
    ) -> (@Sendable (StoreTransaction) throws -> Void) {
        let retry = failed && index < backoff.count ? backoff[index] : nil
        return publishing(arming: retry.map { (index + 1, $0) } ?? then)
    }

    private func publishing(arming next: (index: Int, wait: Duration)?) -> (@Sendable (StoreTransaction) throws -> Void) {
        let shared = self.shared
        let timer = next.map { shared.timer(item: item, profile: profile, index: $0.index, after: $0.wait) }
        let (made, armed) = state.withLock { state -> (DeliveryTimer?, DeliveryTimer?) in
            state.made = state.held
            state.held = nil
            state.armed = timer
            return (state.made, state.armed)
        }
        return { transaction in
            if let made { try shared.announceMade(made, in: transaction) }
            if let armed { try shared.arm(armed, in: transaction) }
        }
    }

    /// After the recording transaction committed: completes the try made; the try armed (claimed
    /// by that transaction) is the one held now.
    public func recorded() async {
        let made = state.withLock { state -> DeliveryTimer? in
            defer { (state.made, state.armed, state.held) = (nil, nil, state.armed) }
            return state.made
        }
        if let made { await shared.complete(made) }
    }

    /// The run ends, its claim first (so a gateway that takes a try given up here can begin a run).
    /// A try still held is completed when the run `finished` (it found nothing more to do for it:
    /// the item delivered already, or with nowhere to go), else given up (the run stopped before
    /// it: cancelled, or a step not recorded), so a gateway waiting for it makes it. A try whose
    /// recording transaction failed (announced made, but not committed) is given up too.
    func end(finished: Bool) async {
        let (held, unrecorded) = state.withLock { state -> (DeliveryTimer?, DeliveryTimer?) in
            defer { (state.held, state.made, state.armed) = (nil, nil, nil) }
            return (state.held, state.made)
        }
        await shared.endRun(item: item, profile: profile)
        if let unrecorded { await shared.giveUp(unrecorded) }
        guard let held else { return }
        if finished { await shared.complete(held) } else { await shared.giveUp(held) }
    }
}
