/// Turns secrets into what the store may keep: keyed hashes for values that must be matched
/// later (card numbers, tokens) and salted, iterated hashes for PINs.
///
/// The key is the server key (32 random bytes in the data directory, see
/// ``SecretHasher/loadOrCreate(in:)``): without it, a copy of the database does not allow
/// testing guesses of card numbers or PINs offline, which a plain hash of a 16-digit PAN or a
/// 4-digit PIN would.
public struct SecretHasher: Sendable {
    /// The size of the server key in bytes.
    public static let keySize = 32
    /// PBKDF2 rounds for new PIN hashes. PINs also get the server key as a pepper, and the
    /// attempt counters bound online guessing, so the rounds only slow offline attacks by someone
    /// who also stole the key.
    public static let defaultPINIterations = 10_000
    /// The prefix of PIN hashes written by ``hashPIN(_:iterations:)``.
    static let pinScheme = "pbkdf2-sha256"

    let mac: HMACSHA256

    /// A hasher keyed with `key`.
    /// - Throws: ``StoreError`` (`secretKey`) when the key is not ``keySize`` bytes.
    public init(key: [UInt8]) throws(StoreError) {
        guard key.count == Self.keySize else {
            throw StoreError(.secretKey, "the server key must be \(Self.keySize) bytes, not \(key.count)")
        }
        self.init(uncheckedKey: key)
    }

    private init(uncheckedKey key: [UInt8]) {
        mac = HMACSHA256(key: key)
    }

    /// A hasher with a fresh random key that is kept nowhere: for tests and throw-away stores.
    public static func ephemeral() -> SecretHasher {
        SecretHasher(uncheckedKey: randomBytes(keySize))
    }

    /// The keyed hash (HMAC-SHA256 under the server key, lower-case hex) of `secret`: store it
    /// instead of a card number or token and compare it with ``matches(_:keyedHash:context:)``.
    /// - Parameters:
    ///   - secret: the clear value (pass card numbers through ``CardNumberMask/digits(_:)`` first).
    ///   - context: separates uses (`"card"`, `"token"`), so equal strings in different roles
    ///     hash differently.
    public func keyedHash(_ secret: String, context: String = "") -> String {
        Hex.encode(mac.authenticate(Array(context.utf8) + [0] + Array(secret.utf8)))
    }

    /// Whether `secret` is the value whose ``keyedHash(_:context:)`` is `keyedHash`, compared in
    /// constant time.
    public func matches(_ secret: String, keyedHash: String, context: String = "") -> Bool {
        guard let expected = Hex.decode(keyedHash) else { return false }
        return ConstantTime.equals(mac.authenticate(Array(context.utf8) + [0] + Array(secret.utf8)), expected)
    }

    /// A salted, iterated hash of `pin` to store: `pbkdf2-sha256$<iterations>$<salt>$<hash>`
    /// (hex), with a fresh 16-byte random salt, PBKDF2-HMAC-SHA256 over the PIN peppered with
    /// the server key.
    public func hashPIN(_ pin: String, iterations: Int = defaultPINIterations) -> String {
        let rounds = max(1, iterations)
        let salt = Self.randomBytes(16)
        let derived = derivePIN(pin, salt: salt, iterations: rounds)
        return "\(Self.pinScheme)$\(rounds)$\(Hex.encode(salt))$\(Hex.encode(derived))"
    }

    /// Whether `pin` is the PIN that ``hashPIN(_:iterations:)`` turned into `stored`, compared in
    /// constant time. A malformed `stored` value never matches.
    public func verifyPIN(_ pin: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.pinScheme, let iterations = Int(parts[1]),
            iterations >= 1, iterations <= 10_000_000,
            let salt = Hex.decode(String(parts[2])), let expected = Hex.decode(String(parts[3])),
            expected.count == SHA256.digestSize
        else { return false }
        return ConstantTime.equals(derivePIN(pin, salt: salt, iterations: iterations), expected)
    }

    private func derivePIN(_ pin: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        let peppered = mac.authenticate(Array("pin".utf8) + [0] + Array(pin.utf8))
        // Iterations and key length are at least 1 here, so this does not throw.
        return (try? PBKDF2.deriveKey(
            password: peppered, salt: salt, iterations: iterations, keyLength: SHA256.digestSize)) ?? []
    }

    /// `count` bytes from the system's secure generator (getrandom on Linux).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
