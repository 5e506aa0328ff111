import CLibCrypto

/// Comparisons of secrets (an auth token, a keyed hash, a stored key check) whose duration does not
/// depend on where they differ, so a secret cannot be guessed byte by byte from response times.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte of both with OpenSSL's
    /// `CRYPTO_memcmp` (lengths are not secret: unequal lengths answer at once). False when
    /// libcrypto cannot be loaded (loaded on first use, see `CLibCrypto.h`): nothing matches then,
    /// and the hash or seal that made either side has already failed with the reason.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        guard LibCrypto.isLoaded else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
