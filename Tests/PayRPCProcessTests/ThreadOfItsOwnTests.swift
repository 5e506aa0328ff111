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

    private static func double(_ value: Int) async -> Int {
        await Task.yield()
        return 2 * value
    }
}
