import PayRPCCore
import PayRPCSync

/// Turns secrets into what the store may keep: keyed hashes for values that must be matched
/// later (card numbers, tokens), salted, iterated hashes for PINs, and sealed (encrypted and
/// authenticated) values for what must be given back.
///
/// The key is the server key (32 random bytes in the data directory, see
/// ``SecretHasher/loadOrCreate(in:)``): without it, a copy of the database does not allow
/// testing guesses of card numbers or PINs offline, which a plain hash of a 16-digit PAN or a
/// 4-digit PIN would. Every primitive is OpenSSL's (see ``HMACSHA256``, ``PBKDF2``,
/// ``AES256GCM``); the outputs of the keyed and PIN hashes are the same as those of payrpc's
/// earlier hand-written implementation, so stored hashes keep verifying.
public struct SecretHasher: Sendable {
    /// The size of the server key in bytes.
    public static let keySize = 32
    /// PBKDF2 rounds for new PIN hashes. PINs also get the server key as a pepper, and the
    /// attempt counters bound online guessing, so the rounds only slow offline attacks by someone
    /// who also stole the key.
    public static let defaultPINIterations = 10_000
    /// The prefix of PIN hashes written by ``hashPIN(_:iterations:)``.
    static let pinScheme = "pbkdf2-sha256"

    /// The server key: the HMAC key of keyed hashes and PIN peppers.
    let key: [UInt8]
    /// The AES-256-GCM key of sealed values, derived from the server key (see ``sealPrefix``) on
    /// the first seal or unseal: deriving it was OpenSSL's first use, and setting OpenSSL up (its
    /// configuration, providers and key types) was a large part of a start, for a key
    /// most runs never need.
    let sealingKey: LazyValue<SealingKey>

    /// The derived sealing key, or why it could not be derived. Not a `Result`: instantiating
    /// `Result<_, StoreError>` at start looked `StoreError: Error` up by scanning every protocol
    /// conformance record of the binary (docs/benchmarks.md).
    enum SealingKey: Sendable {
        case derived([UInt8])
        case failed(StoreError)

        /// The key.
        /// - Throws: the ``StoreError`` that deriving it threw.
        func get() throws(StoreError) -> [UInt8] {
            switch self {
            case .derived(let key): return key
            case .failed(let error): throw error
            }
        }
    }

    /// A hasher keyed with `key`.
    /// - Throws: ``StoreError`` (`secretKey`) when the key is not ``keySize`` bytes.
    public init(key: [UInt8]) throws(StoreError) {
        guard key.count == Self.keySize else {
            throw StoreError(.secretKey, "the server key must be \(Self.keySize) bytes, not \(key.count)")
        }
        self.key = key
        sealingKey = LazyValue {
            do throws(StoreError) {
                return .derived(try HKDF.expand(key: key, info: Array(Self.sealingKeyPurpose.utf8), length: AES256GCM.keySize))
            } catch {
                return .failed(error)
            }
        }
    }

    /// A hasher with a fresh random key that is kept nowhere: for tests and throw-away stores.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public static func ephemeral() throws(StoreError) -> SecretHasher {
        try SecretHasher(key: SecureRandom.bytes(keySize))
    }

    /// The keyed hash (HMAC-SHA256 under the server key, lower-case hex) of `secret`: store it
    /// instead of a card number or token and compare it with ``matches(_:keyedHash:context:)``.
    /// - Parameters:
    ///   - secret: the clear value (pass card numbers through ``CardNumberMask/digits(_:)`` first).
    ///   - context: separates uses (`"card"`, `"token"`), so equal strings in different roles
    ///     hash differently.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public func keyedHash(_ secret: String, context: String = "") throws(StoreError) -> String {
        Hex.encode(try mac(secret, context: context))
    }

    /// Whether `secret` is the value whose ``keyedHash(_:context:)`` is `keyedHash`, compared in
    /// constant time. False also when OpenSSL fails.
    public func matches(_ secret: String, keyedHash: String, context: String = "") -> Bool {
        guard let expected = Hex.decode(keyedHash), let actual = try? mac(secret, context: context) else { return false }
        return ConstantTime.equals(actual, expected)
    }

    /// A salted, iterated hash of `pin` to store: `pbkdf2-sha256$<iterations>$<salt>$<hash>`
    /// (hex), with a fresh 16-byte random salt, PBKDF2-HMAC-SHA256 over the PIN peppered with
    /// the server key.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public func hashPIN(_ pin: String, iterations: Int = defaultPINIterations) throws(StoreError) -> String {
        let rounds = min(max(1, iterations), Self.maximumPINIterations)
        let salt = try SecureRandom.bytes(16)
        let derived = try derivePIN(pin, salt: salt, iterations: rounds)
        return "\(Self.pinScheme)$\(rounds)$\(Hex.encode(salt))$\(Hex.encode(derived))"
    }

    /// Whether `pin` is the PIN that ``hashPIN(_:iterations:)`` turned into `stored`, compared in
    /// constant time. A malformed `stored` value never matches, nor does anything when OpenSSL
    /// fails.
    public func verifyPIN(_ pin: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.pinScheme, let iterations = Int(parts[1]),
            iterations >= 1, iterations <= Self.maximumPINIterations,
            let salt = Hex.decode(String(parts[2])), let expected = Hex.decode(String(parts[3])),
            expected.count == SHA256.digestSize,
            let derived = try? derivePIN(pin, salt: salt, iterations: iterations)
        else { return false }
        return ConstantTime.equals(derived, expected)
    }

    /// The most PBKDF2 rounds a stored PIN hash may ask for: a bound on the work one check costs.
    static let maximumPINIterations = 10_000_000
    /// What the sealing key is derived for (HKDF's info): a new sealing format gets a new key.
    static let sealingKeyPurpose = "payrpc seal v2 aes-256-gcm"

    /// HMAC-SHA256 under the server key of `context ‖ 0x00 ‖ secret`.
    func mac(_ secret: String, context: String) throws(StoreError) -> [UInt8] {
        try HMACSHA256.authenticate(Array(context.utf8) + [0] + Array(secret.utf8), key: key)
    }

    private func derivePIN(_ pin: String, salt: [UInt8], iterations: Int) throws(StoreError) -> [UInt8] {
        let peppered = try mac(pin, context: "pin")
        return try PBKDF2.deriveKey(password: peppered, salt: salt, iterations: iterations, keyLength: SHA256.digestSize)
    }
}
