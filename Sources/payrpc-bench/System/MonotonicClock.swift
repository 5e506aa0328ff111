#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds from `CLOCK_MONOTONIC`: the time base of every latency and window the bench measures.
enum MonotonicClock {
    /// The current monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Converts seconds to nanoseconds (negative values become 0).
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(seconds * 1e9)
    }
}
