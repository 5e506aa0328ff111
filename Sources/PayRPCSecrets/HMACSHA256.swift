import CLibCrypto
import PayRPCStore

/// HMAC-SHA256 (RFC 2104) from OpenSSL's libcrypto (`HMAC` with `EVP_sha256`): the keyed hash
/// of ``SecretHasher``.
public enum HMACSHA256 {
    /// The size of a MAC in bytes.
    public static let macSize = SHA256.digestSize

    /// The MAC of `message` under `key` (any length; keys longer than a block are hashed first).
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public static func authenticate(_ message: [UInt8], key: [UInt8]) throws(StoreError) -> [UInt8] {
        guard key.count <= Int(Int32.max) else { throw StoreError(.invalidArgument, "an HMAC key of \(key.count) bytes") }
        try OpenSSLCall.load()
        var mac = [UInt8](repeating: 0, count: macSize)
        var length: UInt32 = 0
        let result = OpenSSLCall.withInput(key) { key, keyLength in
            OpenSSLCall.withInput(message) { message, messageLength in
                HMAC(EVP_sha256(), key, Int32(keyLength), message, messageLength, &mac, &length)
            }
        }
        guard result != nil, length == UInt32(macSize) else { throw OpenSSLCall.failure("HMAC-SHA256") }
        return mac
    }
}
