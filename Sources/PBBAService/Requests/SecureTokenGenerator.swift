/// Makes the secrets and codes of new payment requests from the system's secure random source.
enum SecureTokenGenerator {
    /// The code alphabet: digits and capitals without the look-alikes 0, O, 1, I and L (31 symbols).
    static let brnAlphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    /// Random bytes in a secureToken: 160 bits.
    static let tokenBytes = 20

    /// A new secureToken: 160 bits from `SystemRandomNumberGenerator`, lower-case hex (URL-safe,
    /// so `zapp://<secureToken>` needs no escaping).
    static func secureToken() -> String {
        hex(randomBytes(tokenBytes))
    }

    /// A new six-character code, each symbol drawn uniformly from ``brnAlphabet``.
    static func brn() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in brnAlphabet[Int.random(in: 0..<brnAlphabet.count, using: &generator)] })
    }

    /// A new non-secret id for a payment request (`pr_` and 64 random bits).
    static func requestId() -> String {
        "pr_" + randomHex(8)
    }

    /// A new pop-up id (`pp_` and 64 random bits).
    static func popupId() -> String {
        "pp_" + randomHex(8)
    }

    private static func randomHex(_ count: Int) -> String {
        hex(randomBytes(count))
    }

    /// `count` random bytes, eight per draw: each draw of `SystemRandomNumberGenerator` is a
    /// `getrandom` system call, so drawing byte by byte cost twenty calls per token.
    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }
}
