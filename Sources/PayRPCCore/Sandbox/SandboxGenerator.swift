import PayRPCSync
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
