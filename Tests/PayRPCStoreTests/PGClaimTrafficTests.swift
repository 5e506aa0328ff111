import Testing

@testable import PayRPCStore
@testable import PayRPCPostgres

/// The rule that keeps abandoning a stale claim of this instance's away from a claim of the same
/// key that one of its calls is making or running.
@Suite struct PGClaimTrafficTests {
    let key = PGClaimTraffic.Key(profile: "p", key: "order-1")
    let other = PGClaimTraffic.Key(profile: "p", key: "order-2")

    @Test func aKeyWithAClaimBeingMadeOrRunIsNotAbandoned() {
        var traffic = PGClaimTraffic()
        let granted1 = traffic.enter(key)
        #expect(granted1)
        let granted2 = traffic.enter(key)
        #expect(granted2)
        let granted3 = traffic.startAbandoning(key)
        #expect(!granted3)
        traffic.leave(key)
        let granted4 = traffic.startAbandoning(key)
        #expect(!granted4, "one of the two claims still runs")
        traffic.leave(key)
        let granted5 = traffic.startAbandoning(key)
        #expect(granted5)
    }

    @Test func aKeyBeingAbandonedIsNotClaimedUntilTheAbandonIsOver() {
        var traffic = PGClaimTraffic()
        let granted6 = traffic.startAbandoning(key)
        #expect(granted6)
        let granted7 = traffic.enter(key)
        #expect(!granted7)
        let granted8 = traffic.enter(other)
        #expect(granted8, "other keys are claimed meanwhile")
        traffic.abandoned(key)
        let granted9 = traffic.enter(key)
        #expect(granted9)
    }

    @Test func leavingAKeyThatWasNeverEnteredChangesNothing() {
        var traffic = PGClaimTraffic()
        traffic.leave(key)
        let granted10 = traffic.enter(key)
        #expect(granted10)
        traffic.leave(key)
        traffic.leave(key)
        let granted11 = traffic.startAbandoning(key)
        #expect(granted11)
    }
}
