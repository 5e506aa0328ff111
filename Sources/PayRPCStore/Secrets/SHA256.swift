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
    /// Bytes of an unfinished block, the first `pendingCount` of them in use.
    private var pending = [UInt8](repeating: 0, count: 64)
    private var pendingCount = 0
    /// Message length in bytes.
    private var length: UInt64 = 0

    /// A hasher with nothing fed yet.
    public init() {}

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
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { update(bytes: $0) }
        }
    }

    /// Feeds bytes: whole blocks are compressed straight from `bytes`, the rest is kept.
    private mutating func update(bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let taken = min(Self.blockSize - pendingCount, bytes.count)
            pending.withUnsafeMutableBytes { block in
                block.baseAddress!.advanced(by: pendingCount).copyMemory(from: bytes.baseAddress!, byteCount: taken)
            }
            pendingCount += taken
            offset = taken
            guard pendingCount == Self.blockSize else { return }
            let block = pending
            block.withUnsafeBytes { compress($0) }
            pendingCount = 0
        }
        while bytes.count - offset >= Self.blockSize {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Self.blockSize]))
            offset += Self.blockSize
        }
        if offset < bytes.count {
            let rest = bytes.count - offset
            pending.withUnsafeMutableBytes { block in
                block.baseAddress!.copyMemory(from: bytes.baseAddress!.advanced(by: offset), byteCount: rest)
            }
            pendingCount = rest
        }
    }

    /// Pads the message, and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 : 128)
        for index in 0..<pendingCount { tail[index] = pending[index] }
        tail[pendingCount] = 0x80
        for index in 0..<8 {
            tail[tail.count - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * index))
        }
        tail.withUnsafeBytes { bytes in
            compress(UnsafeRawBufferPointer(rebasing: bytes[0..<64]))
            if bytes.count == 128 { compress(UnsafeRawBufferPointer(rebasing: bytes[64..<128])) }
        }
        pendingCount = 0
        var digest = [UInt8](repeating: 0, count: Self.digestSize)
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        for (index, word) in words.enumerated() {
            digest[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
            digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
            digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
            digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
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

    /// Runs the compression function on one 64-byte block.
    ///
    /// Written with masking shifts (`&>>`, `&<<`) and plain pointer loops: those are inlined
    /// even in debug builds, where PIN hashing in the services' tests would otherwise be slow.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        let w = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        defer { w.deallocate() }
        let base = block.baseAddress!
        for t in 0..<16 {
            w[t] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: 4 &* t, as: UInt32.self))
        }
        for t in 16..<64 {
            let x = w[t &- 15]
            let y = w[t &- 2]
            let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
            let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        let k = Self.roundConstants
        for t in 0..<64 {
            let s1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
            let s0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ s0 &+ majority
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }

    /// The round constants, in memory that lives as long as the process.
    /// Written once, read only: safe to share between threads.
    nonisolated(unsafe) private static let roundConstants: UnsafePointer<UInt32> = {
        let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        pointer.initialize(from: k, count: 64)
        return UnsafePointer(pointer)
    }()
}
