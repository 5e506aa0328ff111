import CLibCrypto

/// Comparisons whose duration does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte of both (lengths are not secret),
    /// with OpenSSL's `CRYPTO_memcmp`.
    static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
