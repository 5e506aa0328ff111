import PayRPCSync
import PayRPCStore

extension SecretHasher {
    /// The prefix of every sealed value, naming its format: `v2:` is AES-256-GCM. A value
    /// without it was sealed by payrpc's first format (HMAC-SHA256 in counter mode, plain hex),
    /// which this version cannot open; a later format gets a new prefix.
    public static let sealPrefix = "v2:"

    /// Encrypts `plaintext` under the server key, for what must be stored and given back later
    /// but may hold a secret: the first answer of an idempotent call (a PBBA secureToken).
    ///
    /// AES-256-GCM (``AES256GCM``) under a key derived from the server key, with a fresh random
    /// 12-byte nonce per message and `context` as the associated data, so a value sealed for one
    /// use does not open for another. Output: ``sealPrefix`` then the hex of
    /// nonce ‖ ciphertext ‖ tag.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails (deriving the key, on the
    ///   first seal or unseal, included).
    public func seal(_ plaintext: String, context: String) throws(StoreError) -> String {
        let nonce = try SecureRandom.bytes(AES256GCM.nonceSize)
        let box = try AES256GCM.seal(
            Array(plaintext.utf8), key: try sealingKey.value.get(), nonce: nonce,
            authenticating: Array(context.utf8))
        return Self.sealPrefix + Hex.encode(nonce + box.ciphertext + box.tag)
    }

    /// Decrypts what ``seal(_:context:)`` produced with the same key and context; nil when it was
    /// altered, sealed under another key or context or in another format (see
    /// ``isSealedInCurrentFormat(_:)``), or is not a sealed value at all.
    public func unseal(_ sealed: String, context: String) -> String? {
        guard Self.isSealedInCurrentFormat(sealed), let bytes = Hex.decode(String(sealed.dropFirst(Self.sealPrefix.count))),
            bytes.count >= AES256GCM.nonceSize + AES256GCM.tagSize
        else { return nil }
        let nonce = Array(bytes.prefix(AES256GCM.nonceSize))
        let box = AES256GCM.Box(
            ciphertext: Array(bytes[AES256GCM.nonceSize..<(bytes.count - AES256GCM.tagSize)]),
            tag: Array(bytes.suffix(AES256GCM.tagSize)))
        guard let key = try? sealingKey.value.get(),
            let plaintext = AES256GCM.open(box, key: key, nonce: nonce, authenticating: Array(context.utf8))
        else { return nil }
        return String(validating: plaintext, as: UTF8.self)
    }

    /// Whether `sealed` carries this version's format prefix (it may still fail to open).
    public static func isSealedInCurrentFormat(_ sealed: String) -> Bool {
        sealed.hasPrefix(sealPrefix)
    }
}
