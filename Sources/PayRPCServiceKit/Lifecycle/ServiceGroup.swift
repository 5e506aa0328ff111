import Dispatch
import Logging
import PayRPCSync

/// Every service of a gateway running at once: ``start()`` runs each ``GatewayService/run()`` as a
/// child of one task, ``stop()`` cancels them and waits until each has ended its work. The gateway
/// starts the group before it serves and stops it once the transport has drained (every call it
/// read answered), then closes the store; tests run their services the same way.
public final class ServiceGroup: Sendable {
    /// The services, in the catalog's order.
    public let services: [any GatewayService]
    private let logger: Logger
    private let running = Lock<Task<Void, Never>?>(nil)

    /// A group of `services`; nothing runs until ``start()``. A service whose `run()` throws is
    /// logged on `logger` and the others go on.
    public init(_ services: [any GatewayService], logger: Logger) {
        self.services = services
        self.logger = logger
    }

    /// Starts every service's `run()` (again: nothing happens).
    public func start() {
        running.withLock { running in
            guard running == nil else { return }
            let (services, logger) = (services, logger)
            running = Task {
                await withDiscardingTaskGroup { group in
                    for service in services {
                        group.addTask {
                            do {
                                try await service.run()
                            } catch {
                                logger.error(
                                    "a service stopped with an error",
                                    metadata: ["service": .string(type(of: service).name), "error": .string("\(error)")])
                            }
                        }
                    }
                }
            }
        }
    }

    /// Waits, at most `timeout`, until every service's work has started (its subscriptions are
    /// taken: ``ServiceReadiness/signalStarted()``), for a caller that is not a task: the gateway,
    /// before it serves, so that no event another gateway publishes goes unheard.
    /// - Returns: whether every service started within `timeout`.
    public func waitStarted(atMost timeout: Duration) -> Bool {
        let started = DispatchSemaphore(value: 0)
        let services = services
        Task {
            for service in services { await service.readiness.waitStarted() }
            started.signal()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return started.wait(timeout: .now() + seconds) == .success
    }

    /// Returns once every service is ready (``GatewayService/readiness``).
    public func ready() async {
        for service in services { await service.readiness.wait() }
    }

    /// Cancels every service and waits until each has ended its work.
    public func stop() async {
        guard let task = running.withLock({ $0 }) else { return }
        task.cancel()
        await task.value
    }

    /// Cancels every service without waiting (an owner going away that cannot wait).
    public func cancel() { running.withLock { $0 }?.cancel() }

    /// ``stop()`` for a caller that is not a task (the gateway's thread once the loop has drained),
    /// waiting at most `timeout`: a delivery blocked in a request ends only when the request does.
    /// - Returns: whether every service ended within `timeout`.
    public func stop(waitingAtMost timeout: Duration) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        Task {
            await stop()
            ended.signal()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return ended.wait(timeout: .now() + seconds) == .success
    }
}
