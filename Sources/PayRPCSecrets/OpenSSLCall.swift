import CLibCrypto
import PayRPCCore
import PayRPCStore

/// How the secrets helpers check an OpenSSL call: libcrypto reports success as 1 (or a positive
/// count) and failure as 0 or less, with the reason on its thread's error queue.
package enum OpenSSLCall {
    /// Nothing once libcrypto is loaded: the first call loads it (`dlopen`, see `CLibCrypto.h`),
    /// later calls read that outcome. Every helper calls this before its first OpenSSL function.
    /// - Throws: ``StoreError`` (`cryptography`) saying why libcrypto could not be loaded.
    package static func load() throws(StoreError) {
        if let failure = LibCrypto.loadFailure { throw StoreError(.cryptography, failure) }
    }

    /// Nothing when `result` says the call named `operation` succeeded.
    /// - Throws: ``StoreError`` (`cryptography`) with OpenSSL's reason, clearing its error queue.
    package static func check(_ result: Int32, _ operation: String) throws(StoreError) {
        guard result <= 0 else { return }
        throw failure(operation)
    }

    /// Calls `body` with `bytes` as OpenSSL takes input, a pointer and a length, the pointer never
    /// NULL (also for no bytes, where an empty array may have no storage).
    package static func withInput<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        guard !bytes.isEmpty else {
            let none: UInt8 = 0
            return withUnsafePointer(to: none) { body($0, 0) }
        }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
    }

    /// The error for a failed `operation`, with the reason OpenSSL queued (its queue is cleared,
    /// so a later failure does not report this one's reason).
    package static func failure(_ operation: String) -> StoreError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return StoreError(.cryptography, "OpenSSL: \(operation) failed") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return StoreError(.cryptography, "OpenSSL: \(operation) failed: \(reason)")
    }
}
