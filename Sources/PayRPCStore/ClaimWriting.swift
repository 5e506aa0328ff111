/// How a transaction's documents write an idempotency claim the way the store's own
/// ``IdempotencyStore/claim(profile:key:method:paramsDigest:now:)`` does
/// (``StoreTransaction/claim(profile:key:method:paramsDigest:)``): the params' keyed hash and, on
/// a store several gateways share, the gateway the claim belongs to.
struct ClaimWriting: Sendable {
    /// This gateway, as the claim's owner (PostgreSQL's `owner` column); nil on a store one
    /// gateway uses.
    let owner: String?
    /// The params' keyed hash, as the store keeps it.
    let digest: @Sendable (String) throws -> String
}
