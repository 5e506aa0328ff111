import CLibCrypto
import PayRPCCore

/// The tokens that TCP and Unix clients present in `rpc.hello` (`--auth-token-file`), each with
/// the profiles it may use: in a shared sandbox a profile is one team's or one CI job's space,
/// and a token opens only its own.
///
/// The file, one token a line (blank lines and `#` comments are skipped):
///
///     TOKEN                          any profile
///     TOKEN alice ci-*               the profile `alice` and every profile starting `ci-`
///
/// A file of one bare token (the format before tenants) is a token for every profile. Only the
/// SHA-256 of each token is kept, and a presented token is compared with every entry's digest
/// in constant time (`CRYPTO_memcmp` over 32 bytes), so neither which entry matched nor a token's
/// length shows in the time `rpc.hello` takes.
public struct AccessTokens: Sendable {
    /// The profiles one token may use (the engine's ``AccessScope``).
    public typealias Scope = AccessScope

    private struct Entry: Sendable {
        let digest: [UInt8]
        let scope: Scope
    }

    private let entries: [Entry]

    /// How many tokens the file holds.
    public var count: Int { entries.count }

    /// Reads a token file's text.
    /// - Throws: ``AccessTokensError`` naming the line: no token at all, a token given twice,
    ///   an empty profile pattern or a `*` anywhere but at the end of one; or, for the file as a
    ///   whole, why libcrypto (which hashes the tokens) could not be loaded.
    public init(parsing text: String) throws(AccessTokensError) {
        if let failure = LibCrypto.loadFailure { throw AccessTokensError(line: nil, problem: failure) }
        var entries: [Entry] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let token = words.first else { continue }
            let digest = Self.digest(token)
            if entries.contains(where: { ConstantTime.equals($0.digest, digest) }) {
                throw AccessTokensError(line: index + 1, problem: "this token is already on an earlier line")
            }
            var names = Set<String>()
            var prefixes: [String] = []
            for pattern in words.dropFirst() {
                let star = pattern.firstIndex(of: "*")
                if let star, star != pattern.index(before: pattern.endIndex) {
                    throw AccessTokensError(line: index + 1, problem: "\(pattern): a * may only end a profile pattern")
                }
                if star == nil { names.insert(pattern) } else { prefixes.append(String(pattern.dropLast())) }
            }
            let scope = Scope(anyProfile: words.count == 1, names: names, prefixes: prefixes)
            entries.append(Entry(digest: digest, scope: scope))
        }
        guard !entries.isEmpty else { throw AccessTokensError(line: nil, problem: "no token in the file") }
        self.entries = entries
    }

    /// The scope of `token`, or nil when it is none of the file's. Every entry is compared, so
    /// the time taken does not depend on which one matches.
    public func scope(of token: String) -> Scope? {
        let digest = Self.digest(token)
        var found: Scope?
        for entry in entries where ConstantTime.equals(entry.digest, digest) { found = entry.scope }
        return found
    }

    /// SHA-256 of `token`; libcrypto is loaded (``init(parsing:)`` checked, and a load's outcome
    /// stays).
    private static func digest(_ token: String) -> [UInt8] {
        var bytes = Array(token.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var size: UInt32 = 0
        let ok = bytes.withUnsafeMutableBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &size, EVP_sha256(), nil)
        }
        precondition(ok == 1, "SHA-256 failed")
        return Array(digest.prefix(Int(size)))
    }
}

/// A token file that cannot be used: `--auth-token-file`'s start-up error and a reload's refusal
/// (the tokens in force stay).
public struct AccessTokensError: Error, Equatable, CustomStringConvertible {
    /// The line (from 1), nil for the file as a whole.
    public let line: Int?
    /// What is wrong there.
    public let problem: String

    /// `line 3: this token is already on an earlier line`.
    public var description: String { line.map { "line \($0): \(problem)" } ?? problem }
}
