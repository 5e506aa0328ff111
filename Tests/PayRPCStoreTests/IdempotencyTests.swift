import Foundation
import PayRPCCore
import PayRPCSandbox
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import Testing
import PayRPCJSON

@Suite("Idempotency keys")
struct IdempotencyTests {
    let outcome = #""result":{"paymentId":"p-1","status":"done"}"#

    @Test("claim, in progress, conflict, complete, replay")
    func lifecycle() async throws {
        try await withStore { store, _ in
            #expect(try await store.claim(profile: "p", key: "k", method: "tatra.pay", paramsDigest: "d1") == .claimed)
            #expect(try await store.claim(profile: "p", key: "k", method: "tatra.pay", paramsDigest: "d1") == .inProgress)
            #expect(try await store.claim(profile: "p", key: "k", method: "tatra.pay", paramsDigest: "d2") == .conflict)
            #expect(try await store.claim(profile: "p", key: "k", method: "pbba.pay", paramsDigest: "d1") == .conflict)
            try await store.complete(profile: "p", key: "k", outcome: outcome)
            #expect(
                try await store.claim(profile: "p", key: "k", method: "tatra.pay", paramsDigest: "d1")
                    == .replay(outcome: outcome))
            #expect(try await store.claim(profile: "p", key: "k", method: "tatra.pay", paramsDigest: "d2") == .conflict)
            #expect(try await store.claim(profile: "p", key: "k", method: "other", paramsDigest: "d1") == .conflict)
        }
    }

    @Test("abandon forgets a claim in progress but never a completed one")
    func abandon() async throws {
        try await withStore { store, _ in
            #expect(try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d") == .claimed)
            try await store.abandon(profile: "p", key: "k")
            #expect(try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "other") == .claimed)
            try await store.complete(profile: "p", key: "k", outcome: outcome)
            try await store.abandon(profile: "p", key: "k")
            #expect(
                try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "other")
                    == .replay(outcome: outcome))
        }
    }

    @Test("completing a key with no claim in progress changes nothing")
    func completeWithoutClaim() async throws {
        try await withStore { store, _ in
            try await store.complete(profile: "p", key: "never-claimed", outcome: outcome)
            #expect(try await store.claim(profile: "p", key: "never-claimed", method: "m", paramsDigest: "d") == .claimed)
        }
    }

    @Test("concurrent claims of one key: exactly one wins")
    func concurrentClaims() async throws {
        try await withStore { store, _ in
            let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d") }
                }
                var claims: [IdempotencyClaim] = []
                for try await claim in group { claims.append(claim) }
                return claims
            }
            #expect(claims.filter { $0 == .claimed }.count == 1)
            #expect(claims.filter { $0 == .inProgress }.count == 19)
        }
    }

    @Test("a key older than the retention (on the caller's clock) is treated as new, and purged")
    func retention() async throws {
        let clock = ManualClock()
        try await withStore(
            clock: clock,
            {
                $0.idempotencyRetention = .seconds(60)
                $0.idempotencyPurgeInterval = .seconds(30)
            }
        ) { store, _ in
            #expect(try await store.claim(profile: "p", key: "old", method: "m", paramsDigest: "d", now: clock.now) == .claimed)
            try await store.complete(profile: "p", key: "old", outcome: outcome)
            clock.advance(by: 59)
            #expect(
                try await store.claim(profile: "p", key: "old", method: "m", paramsDigest: "d", now: clock.now)
                    == .replay(outcome: outcome))
            #expect(
                try await store.claim(profile: "p", key: "other-old", method: "m", paramsDigest: "d", now: clock.now) == .claimed)
            clock.advance(by: 2)
            // Expired: a repeat with other params is a new call, not a conflict.
            #expect(try await store.claim(profile: "p", key: "old", method: "m", paramsDigest: "new", now: clock.now) == .claimed)
            // Past the purge interval, the next batch deletes what expired ("other-old" is 61 s old now).
            clock.advance(by: 59)
            let before = store.statistics.expiredIdempotencyKeys
            try await store.put(profile: "p", namespace: "n", key: "k", value: 1)
            #expect(store.statistics.expiredIdempotencyKeys - before >= 1)
        }
    }

    @Test("wall-clock steps of a day either way neither purge a key early nor keep it past its retention")
    func retentionIgnoresWallClockSteps() async throws {
        let clocks = SteppedClocks(followingRealTime: false)
        let realTime = RealTimeClock(clocks.source)
        try await withStore({
            $0.now = { realTime.now() }
            $0.idempotencyPurgeInterval = .zero
        }) { store, _ in
            #expect(
                try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d", now: realTime.now())
                    == .claimed)
            try await store.complete(profile: "p", key: "k", outcome: outcome)
            // A day and a bit forward on the wall clock, then a write (every batch purges here).
            clocks.jumpWall(by: 25 * 3600)
            try await store.put(profile: "p", namespace: "n", key: "w1", value: 1)
            #expect(store.statistics.expiredIdempotencyKeys == 0)
            #expect(
                try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "d", now: realTime.now())
                    == .replay(outcome: outcome))
            // And back two days: retention still ends when 24 h have really passed.
            clocks.jumpWall(by: -50 * 3600)
            clocks.elapse(.seconds(24 * 3600 + 1))
            try await store.put(profile: "p", namespace: "n", key: "w2", value: 2)
            #expect(store.statistics.expiredIdempotencyKeys == 1)
            #expect(
                try await store.claim(profile: "p", key: "k", method: "m", paramsDigest: "other", now: realTime.now())
                    == .claimed)
        }
    }

    @Test("expired keys are purged when the store opens")
    func purgeOnOpen() async throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configure: (inout StoreConfiguration) -> Void = { $0.idempotencyRetention = .seconds(60) }
        let store = try openStore(directory, clock: clock, configure)
        for index in 0..<3 {
            _ = try await store.claim(profile: "p", key: "k\(index)", method: "m", paramsDigest: "d")
            try await store.complete(profile: "p", key: "k\(index)", outcome: outcome)
        }
        try await store.close()
        clock.advance(by: 120)
        let reopened = try openStore(directory, clock: clock, configure)
        #expect(reopened.statistics.expiredIdempotencyKeys == 3)
        #expect(try await reopened.profiles().isEmpty)
        try await reopened.close()
    }

    @Test("completed keys survive a reopen; claims left in progress by a dead process are dropped")
    func reopen() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openStore(directory)
        #expect(try await store.claim(profile: "p", key: "done", method: "m", paramsDigest: "d") == .claimed)
        try await store.complete(profile: "p", key: "done", outcome: outcome)
        #expect(try await store.claim(profile: "p", key: "running", method: "m", paramsDigest: "d") == .claimed)
        try await store.close()

        let reopened = try openStore(directory)
        #expect(
            try await reopened.claim(profile: "p", key: "done", method: "m", paramsDigest: "d")
                == .replay(outcome: outcome))
        #expect(try await reopened.claim(profile: "p", key: "running", method: "m", paramsDigest: "d") == .claimed)
        try await reopened.close()
    }

    @Test("the store is usable as the core's IdempotencyStore")
    func existential() async throws {
        try await withStore { store, _ in
            let idempotency: any IdempotencyStore = store
            let claim = try await idempotency.claim(profile: "p", key: "k", method: "m", paramsDigest: "d")
            #expect(claim == .claimed)
        }
    }
}
