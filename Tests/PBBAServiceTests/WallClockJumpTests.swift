import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCTestSupport
import Testing
@testable import PBBAService

extension PBBAServiceTests {
    /// Pop-up and request expiry with the system clock stepped by hours while the server runs:
    /// they fire when their time has really passed (sandbox time follows the monotonic clock),
    /// never because of a step, and a step back does not hold them off.
    @Suite struct WallClockJumps {
        static let hours: TimeInterval = 3 * 3600

        @Test("a step forward expires nothing; a step back delays nothing; the expiry comes when its time has passed")
        func expiryIgnoresSteps() async throws {
            let clocks = SteppedClocks(followingRealTime: false)
            try await PBBATestEnvironment.run(realTime: RealTimeClock(clocks.source)) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 300)
                let popupId = try #require(try await app.showPopup(request, expiryInterval: 60)["popupId"]?.stringValue)

                clocks.jumpWall(by: Self.hours)
                // An advance of nothing fires whatever is due on the profile's clock now.
                try environment.sandbox.advance(profile: "default", by: 0)
                #expect(try await app.call("rpc.health")["status"] == "SERVING")
                #expect(!app.unreadLines.contains { $0.contains("pbba.popupDidExpire") }, "a step forward expired it")
                #expect(
                    try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])["status"]
                        == "inProgress")

                clocks.jumpWall(by: -2 * Self.hours)
                clocks.elapse(.seconds(60))
                try environment.sandbox.advance(profile: "default", by: 0)
                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
                #expect(
                    try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])["status"]
                        == "inProgress", "the request keeps its own 300 s")

                clocks.elapse(.seconds(240))
                try environment.sandbox.advance(profile: "default", by: 0)
                #expect(
                    try await app.call("pbba.getPaymentStatus", ["secureToken": .string(request.secureToken)])["status"]
                        == "expired")
            }
        }

        @Test("the expiry timer fires on time after the wall clock is stepped back by hours")
        func timerAfterStepBack() async throws {
            let clocks = SteppedClocks()
            try await PBBATestEnvironment.run(realTime: RealTimeClock(clocks.source)) { environment in
                let app = environment.harness.connect()
                let request = try await app.submit(interval: 300)
                let popupId = try #require(try await app.showPopup(request, expiryInterval: 1)["popupId"]?.stringValue)
                clocks.jumpWall(by: -Self.hours)
                // Were sandbox time on the wall clock, the timer would find the pop-up hours from due
                // and arm itself again; the notification would not come before the wait gives up.
                let expired = try #require(await app.notification("pbba.popupDidExpire"))
                #expect(expired["popupId"] == .string(popupId))
            }
        }
    }
}
