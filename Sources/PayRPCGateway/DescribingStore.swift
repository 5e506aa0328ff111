#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCStore

/// The store of a router that only describes its methods (`payrpc schemas`, `payrpc validate`):
/// it opens no database and refuses every call, so describing can never touch state.
struct DescribingStore: StateStore, StoreAdministration {
    private static var refusal: StoreError {
        StoreError(.closed, "the methods are being described, not served: no store is open")
    }

    func transaction<R: Sendable>(_ operation: String, _ body: @escaping @Sendable (StoreTransaction) throws -> R) async throws
        -> R
    {
        throw Self.refusal
    }

    func read<R: Sendable>(_ operation: String, _ body: @escaping @Sendable (StoreReader) throws -> R) async throws -> R {
        throw Self.refusal
    }

    func subscribe(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) -> StoreSubscription { .none }

    func claim(profile: String, key: String, method: String, paramsDigest: String, now: Date) async throws -> IdempotencyClaim {
        throw Self.refusal
    }

    func complete(profile: String, key: String, outcome: String) async throws { throw Self.refusal }
    func abandon(profile: String, key: String) async throws { throw Self.refusal }
    func export(profile: String) async throws -> JSONValue { throw Self.refusal }
    func reset(profile: String) async throws { throw Self.refusal }
    func profiles() async throws -> [String] { throw Self.refusal }
    func readAtStartUp<R>(_ body: (StoreReader) throws -> R) throws -> R { throw Self.refusal }
    func close() async throws {}
}
