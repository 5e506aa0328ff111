import Foundation
import Logging
import PayRPCCore
import PayRPCServiceKit
import PayRPCStore
import PayRPCSQLite
import PayRPCSync
import PayRPCTestSupport
import Testing

/// The kit's lifecycle: a readiness signal, a wait that ends on cancellation, a runner that stops
/// its tasks, a service's background work held and ended, and a group of services.
@Suite struct LifecycleTests {
    @Test("a readiness signal wakes who waits before it and answers who waits after it at once")
    func readinessWakesEveryWaiter() async {
        let readiness = ServiceReadiness()
        #expect(!readiness.isReady)
        let waiter = Task { await readiness.wait() }
        readiness.signal()
        await waiter.value
        await readiness.wait()
        readiness.signal()  // again: nothing happens
        #expect(readiness.isReady && ServiceReadiness.ready.isReady)
    }

    @Test("waiting until cancelled returns on cancellation, and at once in a task cancelled already")
    func untilCancelledEndsWithTheTask() async {
        let started = ServiceReadiness()
        let waiting = Task {
            started.signal()
            await ServiceReadiness.untilCancelled()
            return Task.isCancelled
        }
        await started.wait()
        waiting.cancel()
        #expect(await waiting.value)
        let already = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await ServiceReadiness.untilCancelled()
            return true
        }
        #expect(await already.value)
    }

    @Test("a stopped runner cancels its tasks, waits for them and starts no more")
    func runnerStopEndsItsTasks() async {
        let runner = DeliveryRunner()
        let begun = ServiceReadiness()
        let sawCancellation = Lock(false)
        runner.start {
            begun.signal()
            await ServiceReadiness.untilCancelled()
            sawCancellation.withLock { $0 = true }
        }
        await begun.wait()
        #expect(runner.runningCount == 1)
        await runner.stop()
        #expect(sawCancellation.withLock { $0 })
        #expect(runner.runningCount == 0)
        let ran = Lock(false)
        await runner.run("after") { ran.withLock { $0 = true } }.value
        #expect(!ran.withLock { $0 })
    }

    @Test("background work: ready after its catch-up, subscriptions cancelled and stops run when cancelled")
    func backgroundWorkIsHeldAndEnded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifecycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "lifecycle.tests")
        logger.logLevel = .critical
        let store = try SQLiteStateStore(directory: directory, logger: logger)
        let heard = Lock(0)
        let stopped = Lock(false)
        let readiness = ServiceReadiness()
        let runner = DeliveryRunner()
        let release = ServiceReadiness()
        let running = Task {
            try await BackgroundWork.run(readiness: readiness) { work in
                work.hold(store.subscribe("lifecycle.events") { _ in heard.withLock { $0 += 1 } })
                work.catchUp(runner.start { await release.wait() })
                work.onStop {
                    await runner.stop()
                    stopped.withLock { $0 = true }
                }
            }
        }
        // Started (subscribed), but not ready while its catch-up runs.
        await readiness.waitStarted()
        try await store.transaction("publish") { try $0.publish("one", on: "lifecycle.events") }
        #expect(!readiness.isReady)
        release.signal()
        await readiness.wait()
        #expect(heard.withLock { $0 } == 1)
        running.cancel()
        try await running.value
        #expect(stopped.withLock { $0 })
        try await store.transaction("publish") { try $0.publish("two", on: "lifecycle.events") }
        #expect(heard.withLock { $0 } == 1)
        try await store.close()
    }

    /// A service whose `run()` throws at once, or waits for its cancellation and records it.
    struct Probe: GatewayService {
        static let name = "probe"
        static let codeRange = ServiceCodeRange(service: name, first: -33800)
        struct Failed: Error {}
        let fails: Bool
        let ended = Flag()
        let readiness = ServiceReadiness()

        init(context: ServiceContext) throws { fails = false }
        init(fails: Bool) { self.fails = fails }
        func register(on router: inout RouterBuilder) {}

        func run() async throws {
            if fails { throw Failed() }
            readiness.signal()
            await ServiceReadiness.untilCancelled()
            ended.set()
        }
    }

    /// Whether a probe's work ended.
    final class Flag: Sendable {
        private let value = Lock(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    @Test("a group runs every service, logs one that throws and goes on, and stops the others")
    func groupRunsAndStopsItsServices() async {
        let logs = CapturingLogHandler.Store()
        let healthy = Probe(fails: false)
        let failing = Probe(fails: true)
        let group = ServiceGroup([failing, healthy], logger: CapturingLogHandler.logger("group", into: logs))
        group.start()
        group.start()  // again: nothing happens
        await healthy.readiness.wait()
        #expect(!healthy.ended.isSet)
        await group.stop()
        #expect(healthy.ended.isSet)
        #expect(logs.messages(atLeast: .error).contains { $0.contains("a service stopped with an error") })
    }
}
