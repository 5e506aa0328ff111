#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the engine records the answers of mutating calls made with `_meta.idempotencyKey`, so
/// that a repeat returns the first answer without running the method again.
///
/// Declared in the core so the engine can use it without knowing the storage; `PayRPCStore`
/// implements it on SQLite.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a call, or finds what an earlier call with that key answered.
    /// - Parameters:
    ///   - profile: the connection's profile; keys of different profiles never meet.
    ///   - key: the client's idempotency key.
    ///   - method: the canonical method name.
    ///   - paramsDigest: the params (without `_meta`) in canonical form, to detect reuse with other
    ///     params. They may hold secrets: an implementation keeps only a keyed hash of them.
    ///   - now: the profile's sandbox time: retention is measured on it, so advancing the test
    ///     clock past the retention forgets the key.
    func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim

    /// Records the answer of a claimed call: `outcome` is the JSON text of the response member
    /// that follows the id, `"result":...` or `"error":{...}`.
    func complete(profile: String, key: String, outcome: String) async throws

    /// Forgets a claim whose call ended without an answer worth keeping (cancelled, deadline).
    func abandon(profile: String, key: String) async throws
}

extension IdempotencyStore {
    /// Claims `key` on real time (outside a sandbox profile's clock: tools and tests).
    public func claim(profile: String, key: String, method: String, paramsDigest: String) async throws
        -> IdempotencyClaim
    {
        try await claim(profile: profile, key: key, method: method, paramsDigest: paramsDigest, now: Date())
    }
}

/// What ``IdempotencyStore/claim(profile:key:method:paramsDigest:)`` found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new and now claimed: run the method, then `complete`.
    case claimed
    /// The key was used with the same method and params: answer with this outcome again.
    case replay(outcome: String)
    /// The key was used with other params or another method.
    case conflict
    /// A call with this key is still running.
    case inProgress
}
