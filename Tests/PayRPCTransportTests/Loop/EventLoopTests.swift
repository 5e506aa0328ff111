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

@Suite("Event loop, on its own thread", .serialized)
struct LoopThreadExecuteTests {
    @Test("execute on the loop thread runs soon, in order, and a job that requeues itself does not starve I/O")
    func executeOnLoop() throws {
        let factory = TestHandlerFactory()
        let running = try RunningServer(factory: factory) { try $0.listen(.tcp(host: "127.0.0.1", port: 0)) }
        let loop = running.server.loop
        let events = TestEvents()
        let stop = TestEvents()
        final class Spinner: @unchecked Sendable {
            var count = 0
            func spin(_ loop: any EventLoop, _ stop: TestEvents, _ events: TestEvents) {
                count += 1
                if stop.all.isEmpty {
                    loop.execute { self.spin(loop, stop, events) }
                } else {
                    events.record("spinner stopped")
                }
            }
        }
        let spinner = Spinner()
        loop.execute {
            for index in 0..<100 { loop.execute { events.record("local \(index)") } }
            spinner.spin(loop, stop, events)
        }
        #expect(events.wait(for: "local 99"))
        #expect(events.all.prefix(100) == ArraySlice((0..<100).map { "local \($0)" }))
        // While the spinner keeps requeueing itself, sockets are still served.
        let client = try TestClient(tcp: running.address)
        for index in 0..<10 {
            try client.send("spin \(index)\n")
            #expect(try client.readLine() == "spin \(index)")
        }
        stop.record("stop")
        #expect(events.wait(for: "spinner stopped"))
        #expect(running.onLoop { _ in spinner.count }.map { $0 > 10 } == true)
        client.close()
        #expect(running.stop())
    }
}
