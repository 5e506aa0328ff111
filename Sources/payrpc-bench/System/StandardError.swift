#if canImport(Glibc)
import Glibc
#endif

/// Writes to the process's stderr with `write(2)` (Glibc's `stderr` is shared mutable state in Swift 6).
enum StandardError {
    /// Writes `text` as UTF-8.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
