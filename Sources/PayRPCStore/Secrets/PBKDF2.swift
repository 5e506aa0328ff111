import CLibCrypto

/// PBKDF2 with HMAC-SHA256 as the pseudo-random function (RFC 8018 §5.2), from OpenSSL's
/// libcrypto (`PKCS5_PBKDF2_HMAC`): the slow hash of PINs.
public enum PBKDF2 {
    /// Derives `keyLength` bytes from `password` and `salt` with `iterations` rounds.
    /// - Throws: ``StoreError``: `invalidArgument` when `iterations` or `keyLength` is below 1,
    ///   `cryptography` when OpenSSL fails.
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
    ) throws(StoreError) -> [UInt8] {
        guard iterations >= 1, iterations <= Int(Int32.max) else {
            throw StoreError(.invalidArgument, "PBKDF2 needs 1 to \(Int32.max) iterations, not \(iterations)")
        }
        guard keyLength >= 1, keyLength <= Int(Int32.max) else {
            throw StoreError(.invalidArgument, "PBKDF2 needs a key length of at least 1, not \(keyLength)")
        }
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else {
            throw StoreError(.invalidArgument, "PBKDF2 takes passwords and salts below 2 GiB")
        }
        try OpenSSLCall.load()
        var derived = [UInt8](repeating: 0, count: keyLength)
        let result = OpenSSLCall.withInput(password) { password, passwordLength in
            OpenSSLCall.withInput(salt) { salt, saltLength in
                password.withMemoryRebound(to: CChar.self, capacity: max(1, passwordLength)) { password in
                    PKCS5_PBKDF2_HMAC(
                        password, Int32(passwordLength), salt, Int32(saltLength), Int32(iterations),
                        EVP_sha256(), Int32(keyLength), &derived)
                }
            }
        }
        try OpenSSLCall.check(result, "PBKDF2-HMAC-SHA256")
        return derived
    }
}
