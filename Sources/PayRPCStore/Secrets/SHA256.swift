/// SHA-256 (FIPS 180-4), written by hand for the secrets helpers.
///
/// Why by hand: the only crypto package for Linux, swift-crypto, builds BoringSSL from source,
/// which alone breaks the 5-minute release-build budget of the `payrpc` product on the 2-core
/// machines it is built on; Foundation on Linux has no digest API. The store needs just
/// SHA-256, HMAC and PBKDF2, which are short and fully pinned down by official test vectors
/// (see `SecretsVectorTests`), so a small, tested implementation is the cheaper dependency.
/// It is not constant-time with respect to message length, which no caller needs.
public struct SHA256: Sendable {
    /// The size of a digest in bytes.
    public static let digestSize = 32
    /// The size of one message block in bytes.
    public static let blockSize = 64

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// A hasher with nothing fed yet.
    public init() {
        buffer.reserveCapacity(Self.blockSize)
    }

    /// The digest of `bytes`, in one call.
    public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    /// Feeds more message bytes.
    public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            buffer.append(byte)
            length &+= 1
            if buffer.count == Self.blockSize {
                compress(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message, and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            buffer.append(contentsOf: repeatElement(0, count: Self.blockSize - buffer.count))
            compress(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: repeatElement(0, count: 56 - buffer.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        compress(buffer)
        buffer.removeAll(keepingCapacity: true)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Runs the compression function on one 64-byte block.
    private mutating func compress(_ block: [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            block.withUnsafeBufferPointer { bytes in
                for t in 0..<16 {
                    w[t] = UInt32(bytes[4 * t]) << 24 | UInt32(bytes[4 * t + 1]) << 16
                        | UInt32(bytes[4 * t + 2]) << 8 | UInt32(bytes[4 * t + 3])
                }
            }
            for t in 16..<64 {
                let s0 = Self.rotr(w[t - 15], 7) ^ Self.rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = Self.rotr(w[t - 2], 17) ^ Self.rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                    let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }
}
