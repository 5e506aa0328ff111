import CLibCrypto

/// Random bytes from OpenSSL's generator (`RAND_bytes`, seeded from the kernel): server keys,
/// salts and nonces.
public enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: ``StoreError`` (`cryptography`) when the generator cannot deliver.
    public static func bytes(_ count: Int) throws(StoreError) -> [UInt8] {
        guard count > 0 else { return [] }
        guard count <= Int(Int32.max) else { throw StoreError(.invalidArgument, "\(count) random bytes at once") }
        try OpenSSLCall.load()
        var bytes = [UInt8](repeating: 0, count: count)
        try OpenSSLCall.check(RAND_bytes(&bytes, Int32(count)), "RAND_bytes")
        return bytes
    }
}
