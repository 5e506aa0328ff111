#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Real time as the server keeps it: the wall clock read once, at start, advanced by the
/// monotonic clock from then on.
///
/// Every profile's sandbox clock, idempotency retention and the store's timestamps read this, so
/// a step of the system clock while the server runs (an administrator's `date -s`, an NTP
/// correction) disturbs none of them; the server takes the new wall time at its next start. The
/// cost is that a long-running server does not follow a deliberate correction of the wall clock
/// until it restarts, which is right for a sandbox whose time a tester owns anyway.
public struct RealTimeClock: Sendable {
    private let reading: @Sendable () -> Date

    /// Anchors on `source`'s wall clock now; later readings add the monotonic time elapsed since.
    public init(_ source: TimeSource = .system) {
        let anchor = source.wall()
        let start = source.monotonic()
        let monotonic = source.monotonic
        reading = {
            let elapsed = monotonic() - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return anchor.addingTimeInterval(seconds)
        }
    }

    /// A clock that is exactly `reading`, with no anchoring: for tests that pin real time to a fixed
    /// instant or move it by hand.
    public init(reading: @escaping @Sendable () -> Date) {
        self.reading = reading
    }

    /// The current real time.
    public func now() -> Date { reading() }
}
