import CLibCrypto

/// Whether OpenSSL's libcrypto could be loaded, asked once: it is loaded with `dlopen` on first
/// use (`CLibCrypto.h`) and the outcome never changes, so every later hash, seal or comparison
/// reads a constant instead of asking the loader (and allocating room for its reason) again.
public enum LibCrypto {
    /// Nil once libcrypto is loaded; else why it could not be (which file was tried, what
    /// `dlopen` said). The first read loads it.
    public static let loadFailure: String? = {
        var reason = [CChar](repeating: 0, count: 300)
        guard payrpc_crypto_load(&reason, reason.count) == 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Whether libcrypto is loaded (loading it on the first ask).
    public static var isLoaded: Bool { loadFailure == nil }
}
