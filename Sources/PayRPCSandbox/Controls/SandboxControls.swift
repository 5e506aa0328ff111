#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSync
import Synchronization

/// The controls a tester has over a sandbox, per profile, shared by every service: a test clock,
/// the seed of every generated value, and failures armed for the next calls of a method.
///
/// A sandbox is a test tool, so the tester owns its time and its dice (docs/architecture.md,
/// "Money, time and randomness"; docs/sandbox.md):
/// - **Clock.** Each profile's time is real time plus an offset that only grows
///   (``advance(profile:by:)``, ``set(profile:to:)``). Real time is a ``RealTimeClock``: the wall
///   clock read once at start, advanced by the monotonic clock, so a step of the system clock
///   moves no profile's time (and no expiry that hangs on it). Every rule of every service that
///   depends on time reads ``now(profile:)`` (through ``RequestContext/now``), never `Date()`. Call
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
/// With a ``SandboxPersistence`` (a gateway's store), all of it is state of the profile in the
/// store: the controls are a cache of the stored documents, read at start-up, and every change
/// (an advance, a seed, a draw of a seeded stream, a failure armed or taken) is saved before the
/// call that made it answers: inside the call's own store transaction when it writes one, else by
/// the engine (``saveChanges()``). A SIGKILL loses nothing a client was told about.
///
/// Safe to use from any thread. The hot path of a call without armed failures or unsaved changes
/// reads two atomics.
public final class SandboxControls: SandboxAccess {
    let state: Lock<State>
    /// The counts every call reads: failures armed, profiles with unsaved changes, changes made.
    public let activity = SandboxActivity()
    /// Unseeded values: one buffer of the random source's bytes for every profile and stream.
    let systemRandom: Lock<SystemRandomBuffer>
    /// Real time, under every profile's offset.
    public let realTime: RealTimeClock
    let serverSeed: UInt64?
    /// Where the profiles' state is kept; nil: in memory only (unit tests of the engine).
    let persistence: (any SandboxPersistence)?
    /// Whether other gateways share the store (``SandboxPersistence/sharesState``): every call
    /// then runs as a task that reads its profile's documents first
    /// (``enter(profile:method:changesControls:drawsUnderLock:)``).
    public let isShared: Bool
    /// Numbers the reads of stored documents and the saves, so an older read is never taken in.
    let tickets = Atomic<UInt64>(0)
    /// The profile whose sandbox lock the current task holds (shared stores, ``SandboxLock``).
    public static var lockedProfile: String? { SandboxLock.profile }

    struct State {
        var profiles: [String: ProfileState] = [:]
        var unsaved: Set<String> = []
        /// Shared stores: the profiles whose lock a call of this gateway holds (or is taking), with
        /// the calls of this gateway waiting their turn, first come first served.
        var locked: [String: [CheckedContinuation<Void, Never>]] = [:]
        var clockObservers: [UInt64: @Sendable (String, Date) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    /// - Parameters:
    ///   - seed: the seed of every profile that sets none of its own (`serve --seed`); nil: random.
    ///   - realTime: real time, under the profiles' offsets (the system's clocks, anchored now,
    ///     unless a test passes its own).
    ///   - persistence: where each profile's state is kept; nil keeps it in memory only.
    ///   - randomBytes: where unseeded values come from (a gateway passes OpenSSL's,
    ///     `SecureRandom`); the kernel's generator when not given.
    public init(
        seed: UInt64? = nil, realTime: RealTimeClock = RealTimeClock(), persistence: (any SandboxPersistence)? = nil,
        randomBytes: any RandomBytesSource = SystemRandomBytes()
    ) {
        self.systemRandom = Lock(SystemRandomBuffer(source: randomBytes))
        self.serverSeed = seed
        self.realTime = realTime
        self.persistence = persistence
        self.isShared = persistence?.sharesState ?? false
        self.state = Lock(State())
    }

    /// Controls whose real time is exactly what `wallClock` reads (tests that pin time).
    public convenience init(seed: UInt64? = nil, wallClock: @escaping @Sendable () -> Date) {
        self.init(seed: seed, realTime: RealTimeClock(reading: wallClock))
    }

    /// Takes every profile's stored state as the cache's (at start-up, before serving): clock
    /// offsets, seeds and stream positions, armed failures. Positions drawn under the server's
    /// seed are kept only when the server runs with that same seed again.
    public func restore(_ stored: [String: StoredSandboxState]) {
        var armed = 0
        state.withLock { state in
            for (profile, documents) in stored {
                let restored = ProfileState(documents, profile: profile, serverSeed: serverSeed)
                armed += restored.armedCount
                state.profiles[profile] = restored
            }
        }
        activity.armedCount.add(armed, ordering: .relaxed)
    }

    /// Runs `change` on the profile's state (made when absent) and records which documents changed.
    private func change<R>(_ profile: String, _ change: (inout ProfileState) -> R) -> R {
        let tracked = persistence != nil
        let (result, changed, becameUnsaved) = state.withLock { state -> (R, Bool, Bool) in
            var profileState = state.profiles[profile] ?? ProfileState()
            let before = profileState.versions
            let result = change(&profileState)
            if !tracked { profileState.saved = profileState.versions }
            state.profiles[profile] = profileState
            guard profileState.saved != profileState.versions else { return (result, false, false) }
            return (result, profileState.versions != before, state.unsaved.insert(profile).inserted)
        }
        if changed { activity.changeCount.add(1, ordering: .relaxed) }
        if becameUnsaved { activity.unsavedCount.add(1, ordering: .relaxed) }
        return result
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
        change(profile) { state in
            state.offset += seconds
            state.versions.clock += 1
        }
        return clockChanged(profile)
    }

    /// Moves the profile's clock to `time`, which must not be before its current time.
    /// - Throws: ``SandboxControlError`` when `time` is in the profile's past.
    @discardableResult
    public func set(profile: String, to time: Date) throws(SandboxControlError) -> Date {
        let current = now(profile: profile)
        guard time >= current else {
            throw SandboxControlError(
                "the clock only moves forward: \(RFC3339.format(time)) is before the profile's time \(RFC3339.format(current))")
        }
        return try advance(profile: profile, by: time.timeIntervalSince(current))
    }

    /// Forgets the profile's clock offset, seed streams and armed failures (`sandbox.reset`, after
    /// the store forgot the profile's documents: nothing is saved for it).
    public func reset(profile: String) {
        let (removed, wasUnsaved) = state.withLock { state -> (Int, Bool) in
            let count = state.profiles[profile]?.armedCount ?? 0
            state.profiles[profile] = nil
            return (count, state.unsaved.remove(profile) != nil)
        }
        if removed > 0 { activity.armedCount.subtract(removed, ordering: .relaxed) }
        if wasUnsaved { activity.unsavedCount.subtract(1, ordering: .relaxed) }
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

    func clockChanged(_ profile: String) -> Date {
        activity.clockCount.add(1, ordering: .relaxed)
        let observers = state.withLock { Array($0.clockObservers.values) }
        let time = now(profile: profile)
        for observer in observers { observer(profile, time) }
        return time
    }

    // MARK: - Seeded values

    /// Seeds the profile's generators (nil: back to the server's seed, or random). Every stream
    /// starts again from its beginning.
    public func seed(profile: String, _ seed: UInt64?) {
        change(profile) { state in
            state.seed = seed
            state.streams = [:]
            state.versions.generator += 1
        }
    }

    /// The seed in force for the profile, if any.
    public func seed(profile: String) -> UInt64? {
        state.withLock { $0.profiles[profile]?.seed } ?? serverSeed
    }

    /// The next 64 random bits of the profile's stream `stream`: deterministic under a seed,
    /// from the system's cryptographic generator otherwise.
    public func next(profile: String, stream: String) -> UInt64 {
        let serverSeed = self.serverSeed
        let seeded = seed(profile: profile) != nil
        if seeded {
            let drawn: UInt64? = change(profile) { state in
                guard let seed = state.seed ?? serverSeed else { return nil }
                var position = state.streams[stream] ?? StreamPosition(seed: seed, name: profile + "\u{0}" + stream)
                let value = position.generator.next()
                position.drawn += 1
                state.streams[stream] = position
                state.versions.generator += 1
                return value
            }
            if let drawn { return drawn }
        }
        return systemRandom.withLock { $0.next() }
    }

    // MARK: - Injected failures

    /// Arms `count` failures of `method` (a canonical name) for the profile; they are taken in
    /// order by its next calls, after any armed before.
    public func arm(profile: String, method: String, failure: InjectedFailure, count: Int) {
        guard count > 0 else { return }
        change(profile) { state in
            state.failures[method, default: []].append(ArmedFailure(failure: failure, remaining: count))
            state.versions.failures += 1
        }
        activity.armedCount.add(count, ordering: .relaxed)
    }

    /// Whether any profile has a failure armed (one atomic read): when none has, no call needs to
    /// look for one. Calls read it through `RPCEngine.anyFailureArmed`.
    public var hasArmedFailures: Bool { activity.hasArmedFailures }

    /// The error of the failure armed for the profile's next call of `method`, consumed; nil when
    /// none is. Calls take it through `RPCEngine.takeArmedFailure(for:profile:)`, the one reader.
    public func takeFailure(profile: String, method: String) -> RPCError? {
        guard activity.armedCount.load(ordering: .relaxed) > 0 else { return nil }
        let armed = state.withLock { $0.profiles[profile]?.failures[method]?.isEmpty == false }
        guard armed else { return nil }
        let taken: InjectedFailure? = change(profile) { state in
            guard var list = state.failures[method], !list.isEmpty else { return nil }
            let failure = list[0].failure
            list[0].remaining -= 1
            if list[0].remaining == 0 { list.removeFirst() }
            state.failures[method] = list.isEmpty ? nil : list
            state.versions.failures += 1
            return failure
        }
        if taken != nil { activity.armedCount.subtract(1, ordering: .relaxed) }
        return taken?.error
    }

    /// The failures still armed for the profile: method → how many.
    public func armedFailures(profile: String) -> [String: Int] {
        state.withLock { state in
            (state.profiles[profile]?.failures ?? [:]).mapValues { $0.reduce(0) { $0 + $1.remaining } }
        }
    }

    // MARK: - Saving

    /// Whether some profile's state changed since it was last saved (one atomic read).
    public var hasUnsavedChanges: Bool { activity.hasUnsavedChanges }

    /// How many changes that need saving were made so far (one atomic read): equal before and
    /// after a handler when the handler changed nothing.
    public var changes: UInt64 { activity.changes }

    /// The documents that changed since they were last saved, as they are now (one
    /// ``SandboxChange`` per profile). Write them, then hand them to ``markSaved(_:)``.
    ///
    /// On a shared store only the profile whose lock the caller holds is saved (`locked`, the
    /// ``lockedProfile`` read in its task): every change there is made under the profile's lock
    /// across gateways, or (`rpc.hello`'s seed) saved under it, so an unlocked save could write
    /// over what a call of another gateway saved meanwhile.
    public func unsavedChanges(locked: String? = nil) -> [SandboxChange] {
        guard hasUnsavedChanges else { return [] }
        let serverSeed = self.serverSeed, isShared = self.isShared
        return state.withLock { state in
            state.unsaved.sorted().compactMap { profile in
                guard !isShared || profile == locked else { return nil }
                return state.profiles[profile].map { $0.change(profile: profile, serverSeed: serverSeed) }
            }
        }
    }

    /// Records that `changes` are durable: a document changed again since it was taken stays unsaved.
    public func markSaved(_ changes: [SandboxChange]) {
        var saved = 0
        let ticket = tickets.add(1, ordering: .relaxed).newValue
        state.withLock { state in
            for change in changes {
                guard var profileState = state.profiles[change.profile] else { continue }
                profileState.refreshedAt = ticket
                profileState.saved.clock = max(profileState.saved.clock, change.versions.clock)
                profileState.saved.generator = max(profileState.saved.generator, change.versions.generator)
                profileState.saved.failures = max(profileState.saved.failures, change.versions.failures)
                state.profiles[change.profile] = profileState
                if profileState.saved == profileState.versions, state.unsaved.remove(change.profile) != nil { saved += 1 }
            }
        }
        if saved > 0 { activity.unsavedCount.subtract(saved, ordering: .relaxed) }
    }

    /// Saves every unsaved change through the persistence, in one transaction (what the engine
    /// does before answering a call that changed the sandbox's state and wrote nothing itself).
    /// - Throws: the store's error; the changes stay unsaved then.
    public func saveChanges() async throws {
        guard let persistence else { return }
        let changes = unsavedChanges(locked: Self.lockedProfile)
        guard !changes.isEmpty else { return }
        try await persistence.save(changes)
        markSaved(changes)
    }
}
