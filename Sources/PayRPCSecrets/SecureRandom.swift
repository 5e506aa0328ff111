import CLibCrypto
import PayRPCCore
import PayRPCSandbox
import PayRPCStore

/// Random bytes from OpenSSL's generator (`RAND_bytes`, a DRBG in the process seeded from the
/// kernel): server keys, salts and nonces, and (as the sandbox controls' ``RandomBytesSource``)
/// every unseeded sandbox value. The one wrapper of `RAND_bytes` in payrpc.
public struct SecureRandom: RandomBytesSource {
    /// OpenSSL's generator.
    public init() {}

    /// Fills `bytes` from OpenSSL's generator.
    /// - Returns: false when libcrypto cannot be loaded or its generator cannot deliver.
    public func fill(_ bytes: inout [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        guard LibCrypto.isLoaded, bytes.count <= Int(Int32.max) else { return false }
        return bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) == 1 }
    }

    /// `count` random bytes.
    /// - Throws: ``StoreError`` (`cryptography`) when the generator cannot deliver.
    public static func bytes(_ count: Int) throws(StoreError) -> [UInt8] {
        guard count > 0 else { return [] }
        guard count <= Int(Int32.max) else { throw StoreError(.invalidArgument, "\(count) random bytes at once") }
        try OpenSSLCall.load()
        var bytes = [UInt8](repeating: 0, count: count)
        try OpenSSLCall.check(bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }, "RAND_bytes")
        return bytes
    }
}
