import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing

/// The system clock stepped back and forth by hours while the server runs: sandbox time follows
/// the monotonic clock from the wall-clock reading taken at start, and deadlines are loop timers.
@Suite struct WallClockJumpTests {
    static let hours: TimeInterval = 3 * 3600

    @Test("a profile's sandbox time ignores wall-clock steps and moves with elapsed time")
    func sandboxTimeIgnoresSteps() throws {
        let clocks = SteppedClocks(followingRealTime: false)
        let controls = SandboxControls(realTime: RealTimeClock(clocks.source))
        let start = controls.now(profile: "p")
        #expect(start == clocks.wall)
        clocks.jumpWall(by: -Self.hours)
        #expect(controls.now(profile: "p") == start)
        clocks.jumpWall(by: 2 * Self.hours)
        #expect(controls.now(profile: "p") == start)
        #expect(controls.realTime.now() == start)
        clocks.elapse(.seconds(300))
        #expect(controls.now(profile: "p") == start.addingTimeInterval(300))
        // The controls keep their meaning: advance adds, set moves forward only.
        try controls.advance(profile: "p", by: 60)
        #expect(controls.now(profile: "p") == start.addingTimeInterval(360))
        #expect(controls.offset(profile: "p") == 60)
        #expect(throws: SandboxControlError.self) { try controls.set(profile: "p", to: start) }
        try controls.set(profile: "p", to: start.addingTimeInterval(1000))
        #expect(controls.now(profile: "p") == start.addingTimeInterval(1000))
        clocks.jumpWall(by: -10 * Self.hours)
        #expect(controls.now(profile: "p") == start.addingTimeInterval(1000))
    }

    @Test("a clock made after a step anchors on the stepped wall clock (a restart takes the new time)")
    func newAnchorTakesTheStep() {
        let clocks = SteppedClocks(followingRealTime: false)
        let before = RealTimeClock(clocks.source)
        clocks.jumpWall(by: Self.hours)
        let after = RealTimeClock(clocks.source)
        #expect(after.now().timeIntervalSince(before.now()) == Self.hours)
    }

    @Test("deadlines fire on the monotonic clock: a step back does not delay one, a step forward does not fire one")
    func deadlinesIgnoreSteps() async throws {
        let clocks = SteppedClocks()
        let harness = try EngineHarness(
            services: [TestService()],
            sandbox: SandboxControls(realTime: RealTimeClock(clocks.source)))
        let client = harness.connect()
        client.send(#"{"jsonrpc":"2.0","id":"short","method":"test.sleep","params":{"ms":60000,"_meta":{"timeoutMs":100}}}"#)
        client.send(#"{"jsonrpc":"2.0","id":"long","method":"test.sleep","params":{"ms":300,"_meta":{"timeoutMs":60000}}}"#)
        clocks.jumpWall(by: -Self.hours)
        let short = try #require(await client.response(id: "short"))
        #expect(short["error"]?["code"] == -32003)
        clocks.jumpWall(by: 2 * Self.hours)
        let long = try #require(await client.response(id: "long"))
        #expect(long["result"] == 300)
    }
}
