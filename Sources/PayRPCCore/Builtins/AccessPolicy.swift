/// The tokens in force for `rpc.hello` (`--auth-token-file`), as the engine asks them: which
/// profiles a presented token may use. The engine declares it and never hashes a token itself;
/// `PayRPCSecrets`' ``AccessControl`` implements it (SHA-256 digests compared in constant time).
public protocol AccessPolicy: Sendable {
    /// The profiles `token` may use, or nil when it is not a token in force.
    func scope(of token: String) -> AccessScope?
}

/// The profiles one token may use.
public struct AccessScope: Sendable, Equatable {
    /// Whether every profile is allowed (a token with no profiles listed).
    public let anyProfile: Bool
    /// Profiles allowed by name.
    public let names: Set<String>
    /// Profiles allowed by the start of their name (`ci-*` in the file: `ci-`).
    public let prefixes: [String]

    /// A scope of `names` and `prefixes`, or of every profile.
    public init(anyProfile: Bool, names: Set<String>, prefixes: [String]) {
        self.anyProfile = anyProfile
        self.names = names
        self.prefixes = prefixes
    }

    /// Whether `profile` is this scope's.
    public func allows(_ profile: String) -> Bool {
        anyProfile || names.contains(profile) || prefixes.contains { profile.hasPrefix($0) }
    }
}
