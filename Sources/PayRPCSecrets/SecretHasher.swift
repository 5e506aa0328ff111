import PayRPCCore
import PayRPCSync
import PayRPCStore

/// Turns secrets into what the store may keep: keyed hashes for values that must be matched
/// later (card numbers, tokens) and sealed (encrypted and authenticated) values for what must be
/// given back (a shop's PIN).
///
/// The key is the server key (32 random bytes in the data directory, see
/// ``SecretHasher/loadOrCreate(in:)``): without it, a copy of the database does not allow
/// testing guesses of card numbers offline, which a plain hash of a 16-digit PAN would. Every
/// primitive is OpenSSL's (see ``HMACSHA256``, ``HKDF``, ``AES256GCM``); the outputs of the keyed
/// hashes are the same as those of payrpc's earlier hand-written implementation, so stored
/// hashes keep verifying.
public struct SecretHasher: Sendable {
    /// The size of the server key in bytes.
    public static let keySize = 32
    /// The server key: the HMAC key of keyed hashes.
    package let key: [UInt8]
    /// The AES-256-GCM key of sealed values, derived from the server key (see ``sealPrefix``) on
    /// the first seal or unseal: deriving it was OpenSSL's first use, and setting OpenSSL up (its
    /// configuration, providers and key types) was a large part of a start, for a key
    /// most runs never need.
    package let sealingKey: LazyValue<SealingKey>

    /// The derived sealing key, or why it could not be derived. Not a `Result`: instantiating
    /// `Result<_, StoreError>` at start looked `StoreError: Error` up by scanning every protocol
    /// conformance record of the binary (docs/benchmarks.md).
    package enum SealingKey: Sendable {
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

    /// What the sealing key is derived for (HKDF's info): a new sealing format gets a new key.
    package static let sealingKeyPurpose = "payrpc seal v2 aes-256-gcm"

    /// HMAC-SHA256 under the server key of `context ‖ 0x00 ‖ secret`.
    package func mac(_ secret: String, context: String) throws(StoreError) -> [UInt8] {
        try HMACSHA256.authenticate(Array(context.utf8) + [0] + Array(secret.utf8), key: key)
    }
}
