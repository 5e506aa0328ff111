import PayRPCCore
/// One profile's sandbox state as ``SandboxControls`` cache it, with the versions of its three
/// stored documents (what changed, and what is saved).
struct ProfileState {
    var offset: Double = 0
    /// The profile's own seed (`rpc.hello {seed}`); nil: the server's.
    var seed: UInt64?
    var streams: [String: StreamPosition] = [:]
    var failures: [String: [ArmedFailure]] = [:]
    /// Bumped by every change of a document.
    var versions = SandboxVersions()
    /// The versions last saved.
    var saved = SandboxVersions()
    /// The ticket of the last read of the stored documents taken in, or of the last save: a read
    /// that started before either is older than the cache and is not taken in.
    var refreshedAt: UInt64 = 0

    init() {}

    /// The state stored documents describe. Positions drawn under an inherited seed are kept only
    /// when `serverSeed` is that seed.
    init(_ stored: StoredSandboxState, profile: String, serverSeed: UInt64?) {
        offset = max(0, stored.clock?.offsetSeconds ?? 0)
        if let generator = stored.generator {
            let storedSeed = generator.seed.map { UInt64(bitPattern: $0) }
            if generator.explicit { seed = storedSeed }
            if let effective = storedSeed, effective == (seed ?? serverSeed) {
                for (name, drawn) in generator.streams {
                    streams[name] = StreamPosition(
                        seed: effective, name: profile + "\u{0}" + name,
                        drawn: UInt64(bitPattern: drawn))
                }
            }
        }
        for document in stored.failures?.armed ?? [] where document.remaining > 0 {
            let error = RPCError(RPCError.Code(document.code), document.message, data: document.data)
            failures[document.method, default: []].append(
                ArmedFailure(failure: InjectedFailure(error: error), remaining: document.remaining))
        }
    }

    /// Takes in what `stored` (read from a store other gateways share) says of every document
    /// this gateway has no unsaved change of. Returns whether the clock moved.
    mutating func takeIn(_ stored: ProfileState) -> Bool {
        let offsetBefore = offset
        if versions.clock == saved.clock { offset = stored.offset }
        if versions.generator == saved.generator {
            seed = stored.seed
            streams = stored.streams
        }
        if versions.failures == saved.failures { failures = stored.failures }
        return offset != offsetBefore
    }

    /// How many failures are armed.
    var armedCount: Int { failures.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.remaining } } }

    /// The documents that changed since they were saved.
    func change(profile: String, serverSeed: UInt64?) -> SandboxChange {
        let effectiveSeed = seed ?? serverSeed
        return SandboxChange(
            profile: profile,
            clock: versions.clock != saved.clock ? SandboxClockDocument(offsetSeconds: offset) : nil,
            generator: versions.generator != saved.generator
                ? SandboxGeneratorDocument(
                    seed: effectiveSeed.map { Int64(bitPattern: $0) }, explicit: seed != nil,
                    streams: streams.mapValues { Int64(bitPattern: $0.drawn) })
                : nil,
            failures: versions.failures != saved.failures
                ? SandboxFailuresDocument(
                    armed: failures.keys.sorted().flatMap { method in
                        failures[method, default: []].map { armed in
                            ArmedFailureDocument(
                                method: method, code: armed.failure.error.code.rawValue,
                                message: armed.failure.error.message, data: armed.failure.error.data,
                                remaining: armed.remaining)
                        }
                    })
                : nil,
            versions: versions)
    }
}

/// A seeded stream of a profile and how many values it has given.
struct StreamPosition {
    var generator: SeededStream
    var drawn: UInt64

    /// The stream `name` of the profile under `seed`, from its beginning.
    init(seed: UInt64, name qualifiedName: String) {
        generator = SeededStream(seed: seed, name: qualifiedName)
        drawn = 0
    }

    /// The stream after `drawn` values (as restored from the store).
    init(seed: UInt64, name qualifiedName: String, drawn: UInt64) {
        self.generator = SeededStream(seed: seed, name: qualifiedName, position: drawn)
        self.drawn = drawn
    }
}

/// A failure armed for a method, and how many more calls it fails.
struct ArmedFailure {
    let failure: InjectedFailure
    var remaining: Int
}
