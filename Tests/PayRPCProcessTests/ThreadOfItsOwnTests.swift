import Foundation
import PayRPCTestSupport
import Testing

/// The `.onThreadOfItsOwn` trait the test suites use for long computations and for waits that must
/// not queue behind the rest of the suite on the cooperative pool.
@Suite struct ThreadOfItsOwnTests {
    /// With every thread of the cooperative pool blocked, a test on a thread of its own still runs,
    /// and so do its child tasks and what they await; its issues are still its own.
    @Test(.onThreadOfItsOwn) func aTestGoesOnWhileEveryPoolThreadIsBlocked() async {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let blocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0..<threads { release.signal() } }
        for _ in 0..<threads {
            Task.detached {
                blocked.signal()
                _ = release.wait(timeout: .now() + 600)
            }
        }
        // Blocking here holds only this test's own thread. The detached tasks begin once the pool
        // reaches them (behind the rest of the suite); the bound only ends a hang.
        var holding = 0
        while holding < threads, blocked.wait(timeout: .now() + 600) == .success { holding += 1 }
        #expect(holding == threads, "blocking this test's thread blocked one of the pool's")
        guard holding == threads else { return }

        async let doubled = Self.double(21)
        let sums = await withTaskGroup(of: Int.self) { group in
            for value in 1...10 { group.addTask { await Self.double(value) } }
            return await group.reduce(0, +)
        }
        let fromElsewhere = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: "resumed from another thread") }.start()
        }
        #expect(await doubled == 42)
        #expect(sums == 110)
        #expect(fromElsewhere == "resumed from another thread")
        withKnownIssue("an issue recorded on the thread belongs to this test") {
            Issue.record("recorded")
        }
    }

    /// Jobs given to the executor after it stopped still run (on the global executor).
    @Test func jobsAfterTheStopAreNotLost() async {
        let executor = ThreadTaskExecutor(name: "stopped")
        executor.stop()
        let value = await Task(executorPreference: executor) { await Self.double(4) }.value
        #expect(value == 8)
    }

    /// A gated executor (the lane of `.longComputation`) holds the gate from its first job until it
    /// stops; the next one runs only then.
    @Test func longComputationsTakeTheLaneOneAtATime() async {
        let gate = DispatchSemaphore(value: 1)
        let first = ThreadTaskExecutor(name: "first", gate: gate)
        #expect(await Task(executorPreference: first) { await Self.double(1) }.value == 2)
        let taken = gate.wait(timeout: .now())
        if taken == .success { gate.signal() }
        #expect(taken == .timedOut, "the first holds the lane")
        let second = ThreadTaskExecutor(name: "second", gate: gate)
        first.stop()
        #expect(await Task(executorPreference: second) { await Self.double(2) }.value == 4)
        second.stop()
        // A semaphore must not end below its first value: what is taken here is given back.
        let free = await EventWait.blocking(timeout: 70) { () -> Bool in
            guard gate.wait(timeout: .now() + 60) == .success else { return false }
            gate.signal()
            return true
        }
        #expect(free == true, "both stopped, the lane is free")
    }

    private static func double(_ value: Int) async -> Int {
        await Task.yield()
        return 2 * value
    }
}
