#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CLibCrypto
import PayRPCJSON
import PayRPCSync
import Synchronization

/// The controls a tester has over a sandbox, per profile, shared by every service: a test clock,
/// the seed of every generated value, and failures armed for the next calls of a method.
///
/// A sandbox is a test tool, so the tester owns its time and its dice (DESIGN.md, "Money, time and
/// randomness"):
/// - **Clock.** Each profile's time is real time plus an offset that only grows
///   (``advance(profile:by:)``, ``set(profile:to:)``). Real time is a ``RealTimeClock``: the wall
///   clock read once at start, advanced by the monotonic clock, so a step of the system clock
///   moves no profile's time (and no expiry that hangs on it). Every rule of every service that depends
///   on time reads ``now(profile:)`` (through ``RequestContext/now``), never `Date()`. Call
///   deadlines (`_meta.timeoutMs`) stay on the monotonic clock. Services with timers watch
///   ``onClockChange(_:)`` to fire what an advance made due.
/// - **Seed.** With a seed (`serve --seed N`, or `rpc.hello {seed}` for one profile), every value a
///   service generates is drawn from a deterministic stream named after what it generates
///   (`pbba.secureToken`, `northstar.orderID`): the same seed and the same calls in the same order
///   give the same values, so a test can snapshot whole transcripts. One stream per name keeps a
///   new draw in one service from shifting another's values; the profile's name is mixed in, so
///   profiles under one seed draw different values (they share state such as PBBA's merchant
///   backend, where equal tokens would collide). Unseeded, values come from the
///   system's cryptographic generator (`getrandom`), so secrets stay unguessable.
/// - **Failures.** ``arm(profile:method:failure:count:)`` makes the next calls of a method fail with
///   an error it declares; the engine takes them (``takeFailure(profile:method:)``) before the
///   handler runs. One mechanism for every service.
///
/// Safe to use from any thread. The hot path of a call without armed failures reads one atomic.
public final class SandboxControls: Sendable {
    private let state: Lock<State>
    /// How many failures are armed in all: lets every call skip the lock while none is.
    private let armedCount = Atomic<Int>(0)
    /// Unseeded values: one buffer of OpenSSL's random bytes for every profile and stream.
    fileprivate let systemRandom = Lock(SystemRandomBuffer())
    /// Real time, under every profile's offset.
    public let realTime: RealTimeClock
    private let serverSeed: UInt64?

    private struct State {
        var profiles: [String: ProfileState] = [:]
        var clockObservers: [UInt64: @Sendable (String, Date) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    private struct ProfileState {
        var offset: TimeInterval = 0
        var seed: UInt64?
        var streams: [String: SeededStream] = [:]
        var failures: [String: [ArmedFailure]] = [:]
    }

    /// - Parameters:
    ///   - seed: the seed of every profile that sets none of its own (`serve --seed`); nil: random.
    ///   - realTime: real time, under the profiles' offsets (the system's clocks, anchored now,
    ///     unless a test passes its own).
    public init(seed: UInt64? = nil, realTime: RealTimeClock = RealTimeClock()) {
        self.serverSeed = seed
        self.realTime = realTime
        self.state = Lock(State())
    }

    /// Controls whose real time is exactly what `wallClock` reads (tests that pin time).
    public convenience init(seed: UInt64? = nil, wallClock: @escaping @Sendable () -> Date) {
        self.init(seed: seed, realTime: RealTimeClock(reading: wallClock))
    }

    // MARK: - Clock

    /// The profile's sandbox time: real time plus what the tester added, to the millisecond.
    public func now(profile: String) -> Date {
        let offset = state.withLock { $0.profiles[profile]?.offset ?? 0 }
        let seconds = realTime.now().timeIntervalSince1970 + offset
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }

    /// How far the profile's clock is ahead of real time, in seconds.
    public func offset(profile: String) -> TimeInterval {
        state.withLock { $0.profiles[profile]?.offset ?? 0 }
    }

    /// Moves the profile's clock forward by `seconds` (≥ 0) and returns the new time; observers
    /// then fire what became due.
    /// - Throws: ``SandboxControlError`` for a negative or non-finite amount.
    @discardableResult
    public func advance(profile: String, by seconds: TimeInterval) throws(SandboxControlError) -> Date {
        guard seconds.isFinite, seconds >= 0 else {
            throw SandboxControlError("the clock only moves forward: seconds must be 0 or more")
        }
        state.withLock { $0.profiles[profile, default: ProfileState()].offset += seconds }
        return clockChanged(profile)
    }

    /// Moves the profile's clock to `time`, which must not be before its current time.
    /// - Throws: ``SandboxControlError`` when `time` is in the profile's past.
    @discardableResult
    public func set(profile: String, to time: Date) throws(SandboxControlError) -> Date {
        let current = now(profile: profile)
        guard time >= current else {
            throw SandboxControlError("the clock only moves forward: \(RFC3339.format(time)) is before the profile's time \(RFC3339.format(current))")
        }
        return try advance(profile: profile, by: time.timeIntervalSince(current))
    }

    /// Restores a stored offset at start-up (no observer is told).
    public func restore(profile: String, offset: TimeInterval) {
        guard offset.isFinite, offset >= 0 else { return }
        state.withLock { $0.profiles[profile, default: ProfileState()].offset = offset }
    }

    /// Forgets the profile's clock offset, seed streams and armed failures (`sandbox.reset`).
    public func reset(profile: String) {
        let removed = state.withLock { state -> Int in
            let count = state.profiles[profile]?.failures.values.reduce(0) { $0 + $1.count } ?? 0
            state.profiles[profile] = nil
            return count
        }
        if removed > 0 { armedCount.subtract(removed, ordering: .relaxed) }
        _ = clockChanged(profile)
    }

    /// Calls `observer(profile, now)` after every change of a profile's clock, on the thread that
    /// changed it. For services with timers: fire what became due. Returns a token for
    /// ``removeClockObserver(_:)``.
    @discardableResult
    public func onClockChange(_ observer: @escaping @Sendable (String, Date) -> Void) -> UInt64 {
        state.withLock { state in
            state.nextObserver += 1
            state.clockObservers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    /// Stops calling an observer.
    public func removeClockObserver(_ token: UInt64) {
        state.withLock { _ = $0.clockObservers.removeValue(forKey: token) }
    }

    private func clockChanged(_ profile: String) -> Date {
        let observers = state.withLock { Array($0.clockObservers.values) }
        let time = now(profile: profile)
        for observer in observers { observer(profile, time) }
        return time
    }

    // MARK: - Seeded values

    /// Seeds the profile's generators (nil: back to the server's seed, or random). Every stream
    /// starts again from its beginning.
    public func seed(profile: String, _ seed: UInt64?) {
        state.withLock { state in
            state.profiles[profile, default: ProfileState()].seed = seed
            state.profiles[profile]?.streams = [:]
        }
    }

    /// The seed in force for the profile, if any.
    public func seed(profile: String) -> UInt64? {
        state.withLock { $0.profiles[profile]?.seed } ?? serverSeed
    }

    /// The next 64 random bits of the profile's stream `stream`: deterministic under a seed,
    /// from the system's cryptographic generator otherwise.
    public func next(profile: String, stream: String) -> UInt64 {
        let drawn: UInt64? = state.withLock { state in
            guard let seed = state.profiles[profile]?.seed ?? serverSeed else { return nil }
            var profileState = state.profiles[profile] ?? ProfileState()
            var generator = profileState.streams[stream] ?? SeededStream(seed: seed, name: profile + "\u{0}" + stream)
            let value = generator.next()
            profileState.streams[stream] = generator
            state.profiles[profile] = profileState
            return value
        }
        if let drawn { return drawn }
        return systemRandom.withLock { $0.next() }
    }

    /// A generator over the profile's stream, for `Int.random(in:using:)` and friends.
    public func generator(profile: String, stream: String) -> SandboxGenerator {
        if seed(profile: profile) == nil { return SandboxGenerator(.system(self)) }
        return SandboxGenerator(.seeded(self, profile: profile, stream: stream))
    }

    /// `length` characters drawn uniformly from `alphabet` (an id, a code, a token).
    /// - Precondition: `alphabet` is not empty.
    public func string(profile: String, stream: String, length: Int, alphabet: String) -> String {
        let seeded = seed(profile: profile) != nil
        /// Calls `each` with `length` indexes below `count`: unseeded, one random byte each (rather
        /// than 64 bits); seeded, the same draws for any alphabet, so a seed gives the same values.
        func draw(below count: Int, _ each: (Int) -> Void) {
            if !seeded && count <= 256 {
                systemRandom.withLock { system in for _ in 0..<length { each(system.index(below: count)) } }
            } else {
                var generator = self.generator(profile: profile, stream: stream)
                for _ in 0..<length { each(Int.random(in: 0..<count, using: &generator)) }
            }
        }
        let ascii = Array(alphabet.utf8)
        precondition(!ascii.isEmpty, "an empty alphabet")
        if ascii.allSatisfy({ $0 < 0x80 }) {
            // An ASCII alphabet (every one payrpc uses): bytes in, one String out.
            return String(unsafeUninitializedCapacity: length) { buffer in
                var position = 0
                draw(below: ascii.count) { buffer[position] = ascii[$0]; position += 1 }
                return position
            }
        }
        let characters = Array(alphabet)
        var result = ""
        result.reserveCapacity(length)
        draw(below: characters.count) { result.append(characters[$0]) }
        return result
    }

    /// `count` random bytes (a token's entropy).
    public func bytes(profile: String, stream: String, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        var generator = self.generator(profile: profile, stream: stream)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// A version-4 UUID from the profile's stream, upper-case as Foundation writes it.
    public func uuid(profile: String, stream: String) -> String {
        var bytes = self.bytes(profile: profile, stream: stream, count: 16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
                     hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    // MARK: - Injected failures

    /// Arms `count` failures of `method` (a canonical name) for the profile; they are taken in
    /// order by its next calls, after any armed before.
    public func arm(profile: String, method: String, failure: InjectedFailure, count: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            state.profiles[profile, default: ProfileState()].failures[method, default: []]
                .append(ArmedFailure(failure: failure, remaining: count))
        }
        armedCount.add(count, ordering: .relaxed)
    }

    /// The failure armed for the profile's next call of `method`, consumed; nil when none is.
    public func takeFailure(profile: String, method: String) -> InjectedFailure? {
        guard armedCount.load(ordering: .relaxed) > 0 else { return nil }
        let taken: InjectedFailure? = state.withLock { state in
            guard var list = state.profiles[profile]?.failures[method], !list.isEmpty else { return nil }
            let failure = list[0].failure
            list[0].remaining -= 1
            if list[0].remaining == 0 { list.removeFirst() }
            state.profiles[profile]?.failures[method] = list.isEmpty ? nil : list
            return failure
        }
        if taken != nil { armedCount.subtract(1, ordering: .relaxed) }
        return taken
    }

    /// The failures still armed for the profile: method → how many.
    public func armedFailures(profile: String) -> [String: Int] {
        state.withLock { state in
            (state.profiles[profile]?.failures ?? [:]).mapValues { $0.reduce(0) { $0 + $1.remaining } }
        }
    }

    private struct ArmedFailure {
        let failure: InjectedFailure
        var remaining: Int
    }
}

/// An error to answer a call with instead of running it (`sandbox.failNext`).
public struct InjectedFailure: Sendable, Equatable {
    /// The error, exactly as it will be sent.
    public let error: RPCError

    public init(error: RPCError) {
        self.error = error
    }
}

/// A sandbox control was used wrongly (moving the clock backwards); answered as invalid params.
public struct SandboxControlError: Error, Sendable, Equatable, RPCErrorConvertible {
    /// What is wrong.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var rpcError: RPCError {
        RPCError(.invalidParams, "Invalid params", data: ["detail": .string(message)])
    }
}

/// A `RandomNumberGenerator` over one of a profile's streams: the seeded stream, or (unseeded)
/// the system's cryptographic generator.
public struct SandboxGenerator: RandomNumberGenerator {
    enum Source {
        case seeded(SandboxControls, profile: String, stream: String)
        case system(SandboxControls)
    }

    private var source: Source

    init(_ source: Source) { self.source = source }

    public mutating func next() -> UInt64 {
        switch source {
        case .seeded(let controls, let profile, let stream):
            return controls.next(profile: profile, stream: stream)
        case .system(let controls):
            return controls.systemRandom.withLock { $0.next() }
        }
    }
}

/// OpenSSL's generator (`RAND_bytes`: a DRBG in the process, seeded from the kernel) read 4 KiB
/// at a time, for unseeded sandbox values.
///
/// Why buffered, and why not `SystemRandomNumberGenerator`: that one makes one `getrandom(2)` per
/// 64 bits, and a kernel call per character of a token was 10 % of the server's CPU on
/// `pbba.submitPaymentRequest` (issue 19); reading `/dev/urandom` 256 bytes at a time still cost
/// 7 % (the kernel's ChaCha and the copy). `RAND_bytes` runs in the process, but each call pays a
/// fork check and a lock, so one buffer (``SandboxControls``) serves many tokens. The bytes are
/// used once each, in order; nothing here derives or stretches them.
struct SystemRandomBuffer: RandomNumberGenerator {
    private var bytes = [UInt8](repeating: 0, count: 4096)
    private var used = 4096

    /// The next random byte.
    mutating func nextByte() -> UInt8 {
        if used == bytes.count { refill() }
        defer { used += 1 }
        return bytes[used]
    }

    mutating func next() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(nextByte()) }
        return value
    }

    /// A character index below `count` (at most 256), without bias: a byte at or above the
    /// largest multiple of `count` is drawn again.
    mutating func index(below count: Int) -> Int {
        let limit = 256 - 256 % count
        while true {
            let byte = Int(nextByte())
            if byte < limit { return byte % count }
        }
    }

    private mutating func refill() {
        let filled = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) == 1 }
        if !filled {
            // OpenSSL could not seed its generator: the standard library's reads the kernel directly.
            var system = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: system.next()) }
        }
        used = 0
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and statistically sound for test data.
/// Not for secrets: seeded values are meant to be reproducible; unseeded sandbox values come from
/// the system generator instead. The tests draw their random inputs from it too.
public struct SeededStream: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The stream whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The stream named `name` under `seed`: FNV-1a of the name mixed with the seed, so each name
    /// starts somewhere else.
    public init(seed: UInt64, name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        state = seed ^ hash
    }

    public mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
