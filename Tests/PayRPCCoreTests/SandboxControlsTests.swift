import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCSync
import Testing

/// The tester's controls: per-profile clocks that only move forward and tell observers, seeded
/// streams that repeat, unseeded ones that do not, and armed failures taken in order.
@Suite struct SandboxControlsTests {
    /// A wall clock frozen at a known instant, so the offsets are exact.
    static let instant = Date(timeIntervalSince1970: 1_800_000_000)
    static func controls(seed: UInt64? = nil) -> SandboxControls { SandboxControls(seed: seed, wallClock: { instant }) }

    @Test func eachProfileHasItsOwnClockThatOnlyMovesForward() throws {
        let controls = Self.controls()
        #expect(controls.now(profile: "a") == Self.instant)
        try controls.advance(profile: "a", by: 300)
        #expect(controls.now(profile: "a") == Self.instant.addingTimeInterval(300))
        #expect(controls.now(profile: "b") == Self.instant)
        try controls.set(profile: "a", to: Self.instant.addingTimeInterval(3600))
        #expect(controls.offset(profile: "a") == 3600)
        #expect(throws: SandboxControlError.self) { try controls.advance(profile: "a", by: -1) }
        #expect(throws: SandboxControlError.self) { try controls.advance(profile: "a", by: .infinity) }
        #expect(throws: SandboxControlError.self) { try controls.set(profile: "a", to: Self.instant) }
        #expect(controls.offset(profile: "a") == 3600)
        controls.reset(profile: "a")
        #expect(controls.now(profile: "a") == Self.instant)
    }

    @Test func observersHearEveryChangeWithTheProfileAndItsTime() throws {
        let controls = Self.controls()
        let heard = Lock<[(String, Date)]>([])
        let token = controls.onClockChange { profile, now in heard.withLock { $0.append((profile, now)) } }
        try controls.advance(profile: "p", by: 10)
        try controls.set(profile: "q", to: Self.instant.addingTimeInterval(20))
        controls.removeClockObserver(token)
        try controls.advance(profile: "p", by: 10)
        let events = heard.withLock { $0 }
        #expect(events.map(\.0) == ["p", "q"])
        #expect(events.map(\.1) == [Self.instant.addingTimeInterval(10), Self.instant.addingTimeInterval(20)])
    }

    @Test func aSeedRepeatsEveryStreamAndStreamsAreIndependent() {
        func draw(_ controls: SandboxControls, profile: String = "p") -> [String] {
            [
                controls.string(profile: profile, stream: "x.token", length: 12, alphabet: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
                String(controls.next(profile: profile, stream: "x.id")),
                controls.uuid(profile: profile, stream: "x.uuid"),
                controls.bytes(profile: profile, stream: "x.bytes", count: 5).map(String.init).joined(separator: ","),
            ]
        }
        let one = Self.controls(seed: 42), two = Self.controls(seed: 42)
        #expect(draw(one) == draw(two))
        #expect(draw(one) == draw(two))  // the second draws repeat too
        // A draw from another stream does not shift this one.
        let three = Self.controls(seed: 42)
        _ = three.next(profile: "p", stream: "unrelated")
        #expect(draw(three) == draw(Self.controls(seed: 42)))
        #expect(draw(Self.controls(seed: 43)) != draw(Self.controls(seed: 42)))
        // A profile's own seed wins over the server's, and setting it starts the streams again.
        let four = Self.controls(seed: 42)
        let first = draw(four, profile: "q")
        four.seed(profile: "q", 42)
        #expect(draw(four, profile: "q") == first)
        four.seed(profile: "q", 7)
        #expect(four.seed(profile: "q") == 7)
        #expect(draw(four, profile: "q") == draw(Self.controls(seed: 7), profile: "q"))
        // A UUID is version 4.
        let uuid = Self.controls(seed: 1).uuid(profile: "p", stream: "u")
        #expect(uuid.count == 36 && Array(uuid)[14] == "4" && UUID(uuidString: uuid) != nil)
    }

    @Test("unseeded strings: the alphabet's characters only, each about as often (ASCII and not), the length asked")
    func unseededStringsAreUniform() {
        let controls = Self.controls()
        for alphabet in ["abcd", "αβγδ"] {
            let text = controls.string(profile: "p", stream: "s", length: 40_000, alphabet: alphabet)
            #expect(text.count == 40_000)
            var counts: [Character: Int] = [:]
            for character in text { counts[character, default: 0] += 1 }
            #expect(Set(counts.keys) == Set(alphabet))
            // 10,000 expected each, standard deviation 87: ±1,000 is more than 11 of them.
            #expect(counts.values.allSatisfy { (9_000...11_000).contains($0) }, "\(counts)")
        }
        // A seeded ASCII alphabet draws exactly as any alphabet does (the values a seed promises).
        let seeded = Self.controls(seed: 3).string(profile: "p", stream: "t", length: 16, alphabet: "0123456789")
        var generator = Self.controls(seed: 3).generator(profile: "p", stream: "t")
        let digits = Array("0123456789")
        #expect(seeded == String((0..<16).map { _ in digits[Int.random(in: 0..<10, using: &generator)] }))
    }

    @Test func withoutASeedValuesDiffer() {
        let controls = Self.controls()
        #expect(controls.seed(profile: "p") == nil)
        let values = (0..<8).map { _ in controls.next(profile: "p", stream: "s") }
        #expect(Set(values).count == 8)
        #expect(
            Self.controls().string(profile: "p", stream: "s", length: 32, alphabet: "ab")
                != Self.controls().string(profile: "p", stream: "s", length: 32, alphabet: "ab"))
        // Across several refills of the buffered system generator: no repeated 8-byte word, and
        // every byte value shows up (4 KiB of uniform bytes miss one with probability ~3e-5).
        let bytes = controls.bytes(profile: "p", stream: "s", count: 4096)
        #expect(bytes.count == 4096)
        let words = stride(from: 0, to: 4096, by: 8).map { Array(bytes[$0..<$0 + 8]) }
        #expect(Set(words).count == words.count)
        #expect(Set(bytes).count == 256)
        #expect(controls.bytes(profile: "p", stream: "s", count: 64) != controls.bytes(profile: "p", stream: "s", count: 64))
    }

    @Test func armedFailuresAreTakenInOrderPerProfileAndMethod() {
        let controls = Self.controls()
        let general = InjectedFailure(error: RPCError(RPCError.Code(-33000), "General error"))
        let network = InjectedFailure(error: RPCError(RPCError.Code(-33006), "Network error"))
        #expect(controls.takeFailure(profile: "p", method: "m") == nil)
        controls.arm(profile: "p", method: "m", failure: general, count: 2)
        controls.arm(profile: "p", method: "m", failure: network, count: 1)
        controls.arm(profile: "p", method: "m", failure: network, count: 0)  // nothing
        #expect(controls.armedFailures(profile: "p") == ["m": 3])
        #expect(controls.takeFailure(profile: "other", method: "m") == nil)
        #expect(controls.takeFailure(profile: "p", method: "other") == nil)
        #expect(controls.takeFailure(profile: "p", method: "m") == general.error)
        #expect(controls.takeFailure(profile: "p", method: "m") == general.error)
        #expect(controls.takeFailure(profile: "p", method: "m") == network.error)
        #expect(controls.takeFailure(profile: "p", method: "m") == nil)
        controls.arm(profile: "p", method: "m", failure: general, count: 5)
        controls.reset(profile: "p")
        #expect(controls.takeFailure(profile: "p", method: "m") == nil)
        #expect(controls.armedFailures(profile: "p").isEmpty)
    }
}
