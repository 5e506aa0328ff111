/// How a transaction's documents write an idempotency claim the way the store's own
/// ``IdempotencyStore/claim(profile:key:method:paramsDigest:now:)`` does
/// (``StoreTransaction/claim(profile:key:method:paramsDigest:)``): the params' keyed hash and, on
/// a store several gateways share, the gateway the claim belongs to.
package struct ClaimWriting: Sendable {
    /// This gateway, as the claim's owner (PostgreSQL's `owner` column); nil on a store one
    /// gateway uses.
    package let owner: String?
    /// The params' keyed hash, as the store keeps it.
    package let digest: @Sendable (String) throws -> String

    /// How a store whose claims belong to `owner` (nil: one gateway) writes one, hashing params with `digest`.
    package init(owner: String?, digest: @escaping @Sendable (String) throws -> String) {
        self.owner = owner
        self.digest = digest
    }
}
