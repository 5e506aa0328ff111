/// PBKDF2 with HMAC-SHA256 as the pseudo-random function (RFC 8018 §5.2), for PIN hashes.
///
/// Why by hand: see ``SHA256`` — no crypto library builds within the release-build budget
/// here. Checked against the PBKDF2-HMAC-SHA256 vectors of RFC 7914 §11.
public enum PBKDF2 {
    /// Why a derivation could not run.
    public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
    }

    /// Derives `keyLength` bytes from `password` and `salt` with `iterations` rounds.
    /// - Throws: ``ParameterError`` when `iterations` or `keyLength` is below 1.
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
    ) throws(ParameterError) -> [UInt8] {
        guard iterations >= 1 else { throw ParameterError(description: "PBKDF2 needs at least 1 iteration") }
        guard keyLength >= 1 else { throw ParameterError(description: "PBKDF2 needs a key length of at least 1") }
        let mac = HMACSHA256(key: password)
        var derived: [UInt8] = []
        derived.reserveCapacity(keyLength)
        var blockIndex: UInt32 = 1
        while derived.count < keyLength {
            var u = mac.authenticate(salt + [
                UInt8(truncatingIfNeeded: blockIndex >> 24), UInt8(truncatingIfNeeded: blockIndex >> 16),
                UInt8(truncatingIfNeeded: blockIndex >> 8), UInt8(truncatingIfNeeded: blockIndex),
            ])
            var t = u
            if iterations > 1 {
                for _ in 2...iterations {
                    u = mac.authenticate(u)
                    for position in 0..<t.count { t[position] ^= u[position] }
                }
            }
            derived.append(contentsOf: t.prefix(keyLength - derived.count))
            blockIndex += 1
        }
        return derived
    }
}
