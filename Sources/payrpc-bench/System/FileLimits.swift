#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors.
enum FileLimits {
    /// Raises the soft `RLIMIT_NOFILE` to at least `needed` (up to the hard limit), so 1,000 idle
    /// connections fit. Returns the soft limit in force afterwards.
    @discardableResult
    static func raise(toAtLeast needed: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < rlim_t(needed) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(needed))
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
