import PayRPCSync

/// A one-time signal that a service's ``GatewayService/run()`` has started: awaited by tests and
/// by whoever must know the service is listening, never polled or slept for.
public final class ServiceReadiness: Sendable {
    private struct State {
        var ready = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var started = false
        var waitingForStart: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Lock<State>

    /// A signal not given yet.
    public init() { state = Lock(State()) }

    private init(ready: Bool) { state = Lock(State(ready: ready, started: ready)) }

    /// A signal given already: the readiness of a service with no background work.
    public static let ready = ServiceReadiness(ready: true)

    /// Gives the signal (again: nothing happens); it says started too.
    public func signal() {
        signalStarted()
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ready = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Says the service's work has started (its subscriptions are taken), before its catch-up ends:
    /// what the gateway awaits before it serves, so that no event reaches it unheard.
    public func signalStarted() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.started = true
            defer { state.waitingForStart = [] }
            return state.waitingForStart
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the service's work has started (``signalStarted()``).
    public func waitStarted() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.started { return true }
                state.waitingForStart.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Whether the signal was given.
    public var isReady: Bool { state.withLock { $0.ready } }

    /// Returns once the signal is given.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.ready { return true }
                state.waiting.append(continuation)
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
