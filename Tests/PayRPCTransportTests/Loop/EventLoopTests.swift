import Foundation
import Testing
import PayRPCCore
@testable import PayRPCTransport

@Suite("Event loop", .serialized)
struct EventLoopTests {
    @Test("execute runs jobs on the loop thread, from any thread, in order per thread")
    func execute() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { _ in }
        let loop = running.server.loop
        // Once the loop runs, it is the loop thread; this one is not.
        #expect(running.onLoop { $0.loop.inLoopThread } == true)
        #expect(!loop.inLoopThread)
        let events = TestEvents()
        let threads = (0..<4).map { thread in
            Thread {
                for index in 0..<250 {
                    loop.execute { events.record(loop.inLoopThread ? "\(thread):\(index)" : "off loop") }
                }
            }
        }
        threads.forEach { $0.start() }
        #expect(events.wait(timeout: 10) { $0.count == 1000 })
        let all = events.all
        #expect(!all.contains("off loop"))
        for thread in 0..<4 {
            let mine = all.filter { $0.hasPrefix("\(thread):") }
            #expect(mine == (0..<250).map { "\(thread):\($0)" })
        }
        #expect(running.stop())
    }

    @Test("schedule(after:) fires on the loop; a cancelled job never fires; timers are freed")
    func schedule() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { _ in }
        let loop = running.server.loop
        let events = TestEvents()
        let start = ContinuousClock.now
        loop.schedule(after: .milliseconds(30)) { events.record(loop.inLoopThread ? "fired" : "off loop") }
        let cancelled = loop.schedule(after: .milliseconds(40)) { events.record("cancelled job ran") }
        cancelled.cancel()
        #expect(cancelled.isCancelled)
        // Cancelled from the loop thread, after the timer started.
        loop.execute {
            let job = loop.schedule(after: .milliseconds(20)) { events.record("cancelled on loop ran") }
            loop.execute { job.cancel() }
        }
        loop.schedule(after: .milliseconds(120)) { events.record("last") }
        #expect(events.wait(for: "last"))
        // libuv counts from the loop time cached at the start of the iteration: up to ~1 ms early.
        #expect(ContinuousClock.now - start >= .milliseconds(110))
        #expect(events.all == ["fired", "last"])
        let timers = running.onLoop { server in (server.loop as? LibUVEventLoop)?.openTimerCount }
        #expect(timers == 0)
        #expect(running.stop())
    }

    @Test("A job executed after the server stopped is dropped, not run off the loop")
    func executeAfterStop() throws {
        let running = try RunningServer(factory: TestHandlerFactory()) { _ in }
        #expect(running.stop())
        let events = TestEvents()
        running.server.loop.execute { events.record("ran") }
        running.server.loop.schedule(after: .zero) { events.record("ran") }
        #expect(events.all.isEmpty)
    }

    @Test("Millisecond conversion rounds up")
    func milliseconds() {
        #expect(LibUVEventLoop.milliseconds(.zero) == 0)
        #expect(LibUVEventLoop.milliseconds(.microseconds(1)) == 1)
        #expect(LibUVEventLoop.milliseconds(.milliseconds(1500)) == 1500)
        #expect(LibUVEventLoop.milliseconds(.seconds(-1)) == 0)
    }
}
