/// HMAC-SHA256 (RFC 2104), on top of the hand-written ``SHA256``.
///
/// Why by hand: see ``SHA256`` — no crypto library builds within the release-build budget
/// here. Checked against the RFC 4231 test vectors. The key's inner and outer pads are hashed
/// once in `init`, so PBKDF2's many iterations cost two compressions each, not four.
public struct HMACSHA256: Sendable {
    /// The size of a MAC in bytes.
    public static let macSize = SHA256.digestSize

    private let inner: SHA256
    private let outer: SHA256

    /// A MAC keyed with `key` (any length; keys longer than a block are hashed first).
    public init<Key: Collection<UInt8>>(key: Key) {
        var block = key.count > SHA256.blockSize ? SHA256.hash(key) : Array(key)
        block.append(contentsOf: repeatElement(0, count: SHA256.blockSize - block.count))
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message`.
    public func authenticate<Message: Sequence<UInt8>>(_ message: Message) -> [UInt8] {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The MAC of `message` under `key`, in one call.
    public static func authenticate<Key: Collection<UInt8>, Message: Sequence<UInt8>>(
        _ message: Message, key: Key
    ) -> [UInt8] {
        HMACSHA256(key: key).authenticate(message)
    }
}
