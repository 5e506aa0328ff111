import PayRPCStore
import PayRPCSync

/// What a service's ``GatewayService/run()`` starts and must end: the store subscriptions it
/// holds, what to do when it stops (a clock observer removed, a runner's tasks ended), and the
/// catch-up work (the resend at start-up) after which the service is ready.
///
/// ```swift
/// public func run() async throws {
///     try await BackgroundWork.run(readiness: readiness) { work in
///         work.hold(book.onDecision { … })
///         let waiting = await delivery.waitingAtStartUp()
///         work.catchUp(delivery.runner.start { await delivery.resendAll(waiting) })
///         work.onStop { await delivery.runner.stop() }
///     }
/// }
/// ```
public final class BackgroundWork: Sendable {
    private struct State {
        var subscriptions: [StoreSubscription] = []
        var stops: [@Sendable () async -> Void] = []
        var catchUps: [Task<Void, Never>] = []
    }

    private let state = Lock(State())

    private init() {}

    /// Keeps `subscription` until the service stops, then cancels it (before any ``onStop(_:)``).
    public func hold(_ subscription: StoreSubscription) {
        state.withLock { $0.subscriptions.append(subscription) }
    }

    /// Runs `stop` when the service stops, after the subscriptions are cancelled, in the order given.
    public func onStop(_ stop: @escaping @Sendable () async -> Void) {
        state.withLock { $0.stops.append(stop) }
    }

    /// The service is ready once `task` has ended (and every other catch-up given). `task` must
    /// end when the service stops: one of a `DeliveryRunner` that an ``onStop(_:)`` stops.
    public func catchUp(_ task: Task<Void, Never>) {
        state.withLock { $0.catchUps.append(task) }
    }

    /// Starts the work with `start`, signals `readiness` once its catch-up work has ended, and
    /// waits until the calling task is cancelled; then ends the work and returns.
    /// - Throws: what `start` throws, after ending what it had started.
    public static func run(readiness: ServiceReadiness, _ start: (BackgroundWork) async throws -> Void) async throws {
        let work = BackgroundWork()
        do {
            try await start(work)
        } catch {
            await work.stop()
            readiness.signalStarted()
            throw error
        }
        readiness.signalStarted()
        let catchUps = work.state.withLock { $0.catchUps }
        await withDiscardingTaskGroup { group in
            group.addTask {
                for task in catchUps { await task.value }
                readiness.signal()
            }
            await ServiceReadiness.untilCancelled()
            // Ends the catch-up tasks too: each belongs to a runner a stop ends.
            await work.stop()
        }
    }

    private func stop() async {
        let (subscriptions, stops) = state.withLock { state in
            defer { (state.subscriptions, state.stops) = ([], []) }
            return (state.subscriptions, state.stops)
        }
        for subscription in subscriptions { subscription.cancel() }
        for stop in stops { await stop() }
    }
}
