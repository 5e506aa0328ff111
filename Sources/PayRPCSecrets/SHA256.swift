import CLibCrypto
import PayRPCStore

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto (`EVP_Digest`): the unkeyed hash, for values
/// that are already unguessable (a random 160-bit token) when no server key is at hand.
public enum SHA256 {
    /// The size of a digest in bytes.
    public static let digestSize = 32

    /// The digest of `bytes`.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public static func hash(_ bytes: [UInt8]) throws(StoreError) -> [UInt8] {
        try OpenSSLCall.load()
        var digest = [UInt8](repeating: 0, count: digestSize)
        var length: UInt32 = 0
        let result = OpenSSLCall.withInput(bytes) { input, count in
            EVP_Digest(input, count, &digest, &length, EVP_sha256(), nil)
        }
        try OpenSSLCall.check(result, "EVP_Digest(SHA-256)")
        guard length == UInt32(digestSize) else { throw StoreError(.cryptography, "OpenSSL: SHA-256 gave \(length) bytes") }
        return digest
    }

    /// The digest of the UTF-8 bytes of `text`.
    /// - Throws: ``StoreError`` (`cryptography`) when OpenSSL fails.
    public static func hash(_ text: String) throws(StoreError) -> [UInt8] { try hash(Array(text.utf8)) }
}
