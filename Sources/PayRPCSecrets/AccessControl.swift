import PayRPCCore
import PayRPCSync

/// The token file in force (`--auth-token-file`), replaceable while the server runs: SIGHUP reads
/// the file again and the next `rpc.hello` of any connection is checked against the new tokens
/// (connections already admitted keep their profile). A file that cannot be used is refused and
/// the tokens in force stay.
public final class AccessControl: AccessPolicy {
    private let tokens: Lock<AccessTokens>

    /// Starts with `tokens`.
    public init(_ tokens: AccessTokens) {
        self.tokens = Lock(tokens)
    }

    /// Reads `text` as the new token file.
    /// - Returns: how many tokens are now in force.
    /// - Throws: ``AccessTokensError``; the tokens in force are kept.
    @discardableResult
    public func reload(_ text: String) throws(AccessTokensError) -> Int {
        let replacement = try AccessTokens(parsing: text)
        tokens.withLock { $0 = replacement }
        return replacement.count
    }

    /// The profiles `token` may use, or nil when it is not a token in force.
    public func scope(of token: String) -> AccessTokens.Scope? {
        let current = tokens.withLock { $0 }
        return current.scope(of: token)
    }
}
