import Foundation
import PayRPCCore
import PayRPCSync

/// An ``IdempotencyStore`` in memory, for engine tests that check the engine's side of
/// idempotency (the SQLite store has its own tests, and the end-to-end tests use it).
public final class MemoryIdempotencyStore: IdempotencyStore, Sendable {
    private typealias Record = (method: String, digest: String, outcome: String?)
    private let records = Lock<[String: Record]>([:])

    public init() {}

    /// Claims `key`; this store keeps keys forever, so `now` does not matter.
    public func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws
        -> IdempotencyClaim
    {
        records.withLock { records in
            let id = profile + "\u{0}" + key
            guard let record = records[id] else {
                records[id] = (method, paramsDigest, nil)
                return .claimed
            }
            if record.method != method || record.digest != paramsDigest { return .conflict }
            guard let outcome = record.outcome else { return .inProgress }
            return .replay(outcome: outcome)
        }
    }

    public func complete(profile: String, key: String, outcome: String) async throws {
        records.withLock { $0[profile + "\u{0}" + key]?.outcome = outcome }
    }

    public func abandon(profile: String, key: String) async throws {
        _ = records.withLock { $0.removeValue(forKey: profile + "\u{0}" + key) }
    }
}
