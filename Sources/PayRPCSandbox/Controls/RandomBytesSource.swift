/// Where unseeded sandbox values come from: a cryptographic generator that fills a buffer at a
/// time. The controls declare it so that they need no cryptography library of their own;
/// `PayRPCSecrets`' ``SecureRandom`` (OpenSSL's `RAND_bytes`) is the one a gateway serves with.
public protocol RandomBytesSource: Sendable {
    /// Fills `bytes` with random bytes.
    /// - Returns: false when the generator cannot deliver (the caller then reads the kernel's).
    func fill(_ bytes: inout [UInt8]) -> Bool
}

/// The standard library's generator (the kernel's `getrandom(2)`, 64 bits a call): the controls'
/// source when they are given none (unit tests), and every source's fallback.
public struct SystemRandomBytes: RandomBytesSource {
    /// The kernel's generator.
    public init() {}

    /// Fills `bytes` from `SystemRandomNumberGenerator`; never fails.
    public func fill(_ bytes: inout [UInt8]) -> Bool {
        var system = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: system.next()) }
        return true
    }
}
