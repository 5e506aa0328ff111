import CLibCrypto
import PayRPCStore

/// HKDF-Expand with SHA-256 (RFC 5869 §2.3) from OpenSSL's libcrypto (`EVP_PKEY_HKDF` in
/// expand-only mode): derives a key for one purpose from the server key, so the sealing cipher
/// never uses the key that the keyed hashes use.
///
/// Expand only, without the extract step: the server key is already 32 uniformly random bytes,
/// the case RFC 5869 §3.3 says may skip extraction.
public enum HKDF {
    /// `length` bytes (1 to 8160) for the purpose `info`, from the pseudo-random key `key`.
    /// - Throws: ``StoreError``: `invalidArgument` for a length out of range, `cryptography`
    ///   when OpenSSL fails.
    public static func expand(key: [UInt8], info: [UInt8], length: Int) throws(StoreError) -> [UInt8] {
        guard length >= 1, length <= 255 * SHA256.digestSize else {
            throw StoreError(.invalidArgument, "HKDF-SHA256 derives 1 to \(255 * SHA256.digestSize) bytes, not \(length)")
        }
        try OpenSSLCall.load()
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw OpenSSLCall.failure("EVP_PKEY_CTX_new_id(HKDF)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSLCall.check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init(HKDF)")
        try OpenSSLCall.check(EVP_PKEY_CTX_set_hkdf_mode(context, EVP_PKEY_HKDEF_MODE_EXPAND_ONLY), "HKDF mode")
        try OpenSSLCall.check(EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()), "HKDF digest")
        try OpenSSLCall.check(OpenSSLCall.withInput(key) { EVP_PKEY_CTX_set1_hkdf_key(context, $0, Int32($1)) }, "HKDF key")
        if !info.isEmpty {
            try OpenSSLCall.check(
                OpenSSLCall.withInput(info) { EVP_PKEY_CTX_add1_hkdf_info(context, $0, Int32($1)) }, "HKDF info")
        }
        var derived = [UInt8](repeating: 0, count: length)
        var derivedLength = length
        try OpenSSLCall.check(EVP_PKEY_derive(context, &derived, &derivedLength), "EVP_PKEY_derive(HKDF)")
        guard derivedLength == length else { throw StoreError(.cryptography, "OpenSSL: HKDF gave \(derivedLength) bytes") }
        return derived
    }
}
