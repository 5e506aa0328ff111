/// A ``RandomBytesSource`` (a gateway's: OpenSSL's `RAND_bytes`, a DRBG in the process, seeded
/// from the kernel) read 4 KiB at a time, for unseeded sandbox values.
///
/// Why buffered, and why not `SystemRandomNumberGenerator`: that one makes one `getrandom(2)` per
/// 64 bits, and a kernel call per character of a token was 10 % of the server's CPU on
/// `pbba.submitPaymentRequest` (issue 19); reading `/dev/urandom` 256 bytes at a time still cost
/// 7 % (the kernel's ChaCha and the copy). `RAND_bytes` runs in the process, but each call pays a
/// fork check and a lock, so one buffer (``SandboxControls``) serves many tokens. The bytes are
/// used once each, in order; nothing here derives or stretches them.
struct SystemRandomBuffer: RandomNumberGenerator {
    private let source: any RandomBytesSource
    private var bytes = [UInt8](repeating: 0, count: 4096)
    private var used = 4096

    /// A buffer refilled from `source`.
    init(source: any RandomBytesSource) {
        self.source = source
    }

    /// The next random byte.
    mutating func nextByte() -> UInt8 {
        if used == bytes.count { refill() }
        defer { used += 1 }
        return bytes[used]
    }

    mutating func next() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(nextByte()) }
        return value
    }

    /// A character index below `count` (at most 256), without bias: a byte at or above the
    /// largest multiple of `count` is drawn again.
    mutating func index(below count: Int) -> Int {
        let limit = 256 - 256 % count
        while true {
            let byte = Int(nextByte())
            if byte < limit { return byte % count }
        }
    }

    private mutating func refill() {
        if !source.fill(&bytes) {
            // libcrypto could not be loaded or OpenSSL could not seed its generator: the standard
            // library's reads the kernel directly.
            _ = SystemRandomBytes().fill(&bytes)
        }
        used = 0
    }
}
