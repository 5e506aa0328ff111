import PayRPCCore
import PayRPCSync
import Synchronization

/// The `sandbox.calls.wait`s in progress, by profile: woken when their profile's journal grows
/// (on this gateway, or on another one sharing the store). A wait arms a signal before it reads
/// the journal, so an entry that arrives in between still wakes it.
final class CallWaiters: Sendable {
    private let armed = Atomic<Int>(0)
    /// Told of each wait armed and disarmed: while one is, every log hands its calls over at the
    /// end of each read, so the wait wakes as they come.
    private let demand: CallDemand

    init(demand: CallDemand) {
        self.demand = demand
    }
    private let signals = Lock<[String: [ObjectIdentifier: CallSignal]]>([:])

    /// A signal fired at the next growth of `profile`'s journal; ``disarm(_:profile:)`` it after.
    func arm(_ profile: String) -> CallSignal {
        let signal = CallSignal()
        signals.withLock { $0[profile, default: [:]][ObjectIdentifier(signal)] = signal }
        armed.add(1, ordering: .relaxed)
        demand.add()
        return signal
    }

    /// Forgets an armed signal.
    func disarm(_ signal: CallSignal, profile: String) {
        let removed = signals.withLock { signals -> Bool in
            let removed = signals[profile]?.removeValue(forKey: ObjectIdentifier(signal)) != nil
            if signals[profile]?.isEmpty == true { signals[profile] = nil }
            return removed
        }
        if removed {
            armed.subtract(1, ordering: .relaxed)
            demand.remove()
        }
    }

    /// `profile`'s journal grew: fires its signals. One load when nothing waits (the request path).
    @inline(__always)
    func grew(_ profile: String) {
        guard armed.load(ordering: .relaxed) > 0 else { return }
        fire(profile)
    }

    @inline(never)
    private func fire(_ profile: String) {
        let fired = signals.withLock { $0[profile].map { Array($0.values) } ?? [] }
        for signal in fired { signal.fire() }
    }
}
