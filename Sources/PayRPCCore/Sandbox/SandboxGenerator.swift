/// A `RandomNumberGenerator` over one of a profile's streams: the seeded stream, or (unseeded)
/// the system's cryptographic generator (``SandboxAccess/next(profile:stream:)`` decides).
public struct SandboxGenerator: RandomNumberGenerator {
    private let sandbox: any SandboxAccess
    private let profile: String
    private let stream: String

    /// The generator of `profile`'s stream `stream` (``RequestContext/random(_:)`` makes them).
    public init(_ sandbox: any SandboxAccess, profile: String, stream: String) {
        self.sandbox = sandbox
        self.profile = profile
        self.stream = stream
    }

    public mutating func next() -> UInt64 { sandbox.next(profile: profile, stream: stream) }
}
