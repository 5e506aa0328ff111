import PayRPCCore

/// Makes the secrets, codes and ids of payment requests and pop-ups, each from its own stream of
/// the caller's profile (``RequestContext/random(_:)``): under a seed (`serve --seed`,
/// `rpc.hello {seed}`) they are a deterministic function of the seed and the order of calls, so a
/// test can snapshot whole transcripts; unseeded they come from the system's cryptographic
/// generator, so a secureToken stays unguessable.
enum SecureTokenGenerator {
    /// The code alphabet: digits and capitals without the look-alikes 0, O, 1, I and L (31 symbols).
    static let brnAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    /// Lower-case hex: URL-safe, so `zapp://<secureToken>` needs no escaping.
    static let hexAlphabet = "0123456789abcdef"

    /// A new secureToken: 40 hex digits (160 bits).
    static func secureToken(_ source: some PBBARandomSource) -> String {
        source.randomString("pbba.secureToken", length: 40, alphabet: hexAlphabet)
    }

    /// A new six-character code, each symbol drawn uniformly from ``brnAlphabet``.
    static func brn(_ source: some PBBARandomSource) -> String {
        source.randomString("pbba.brn", length: 6, alphabet: brnAlphabet)
    }

    /// A new non-secret id for a payment request (`pr_` and 64 bits).
    static func requestId(_ source: some PBBARandomSource) -> String {
        "pr_" + source.randomString("pbba.requestId", length: 16, alphabet: hexAlphabet)
    }

    /// A new pop-up id (`pp_` and 64 bits).
    static func popupId(_ source: some PBBARandomSource) -> String {
        "pp_" + source.randomString("pbba.popupId", length: 16, alphabet: hexAlphabet)
    }
}

/// Where ``SecureTokenGenerator`` draws from: a call's ``RequestContext`` (its profile's streams).
protocol PBBARandomSource {
    /// `length` characters from `alphabet`, drawn from the stream `stream`.
    func randomString(_ stream: String, length: Int, alphabet: String) -> String
}

extension RequestContext: PBBARandomSource {}
