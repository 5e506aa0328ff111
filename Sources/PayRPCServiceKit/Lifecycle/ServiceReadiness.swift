import PayRPCSync

/// A one-time signal that a service's ``GatewayService/run()`` has started: awaited by tests and
/// by whoever must know the service is listening, never polled or slept for.
public final class ServiceReadiness: Sendable {
    /// One signal given once, and who waits for it.
    private struct Stage {
        var given = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// The two stages: started (subscriptions taken), then ready (catch-up ended).
    private let stages: Lock<(started: Stage, ready: Stage)>

    /// A signal not given yet.
    public init() { stages = Lock((Stage(), Stage())) }

    private init(ready: Bool) { stages = Lock((Stage(given: ready), Stage(given: ready))) }

    /// A signal given already: the readiness of a service with no background work.
    public static let ready = ServiceReadiness(ready: true)

    /// Gives the signal (again: nothing happens); it says started too.
    public func signal() {
        signalStarted()
        give(\.ready)
    }

    /// Says the service's work has started (its subscriptions are taken), before its catch-up ends:
    /// what the gateway awaits before it serves, so that no event reaches it unheard.
    public func signalStarted() { give(\.started) }

    /// Whether the signal was given.
    public var isReady: Bool { stages.withLock { $0.ready.given } }

    /// Returns once the signal is given.
    public func wait() async { await wait(for: \.ready) }

    /// Returns once the service's work has started (``signalStarted()``).
    public func waitStarted() async { await wait(for: \.started) }

    private typealias StagePath = WritableKeyPath<(started: Stage, ready: Stage), Stage>

    private func give(_ stage: StagePath) {
        let waiting = stages.withLock { stages -> [CheckedContinuation<Void, Never>] in
            stages[keyPath: stage].given = true
            defer { stages[keyPath: stage].waiting = [] }
            return stages[keyPath: stage].waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    private func wait(for stage: StagePath) async {
        await withCheckedContinuation { continuation in
            let now = stages.withLock { stages -> Bool in
                if stages[keyPath: stage].given { return true }
                stages[keyPath: stage].waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns when the calling task is cancelled (at once if it is already).
    public static func untilCancelled() async {
        let parked = ParkedUntilCancelled()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = parked.state.withLock { state -> Bool in
                    if !state.cancelled { state.continuation = continuation }
                    return state.cancelled
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            let continuation = parked.state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}

/// The waiter of ``ServiceReadiness/untilCancelled()``: its continuation, or that the
/// cancellation came first.
private final class ParkedUntilCancelled: Sendable {
    let state = Lock<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
}
