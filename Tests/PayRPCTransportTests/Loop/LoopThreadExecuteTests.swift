import PayRPCTestSupport
import Foundation
import Testing
import PayRPCCore
@testable import PayRPCTransport

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
        let client = try SocketClient(tcp: running.address)
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
