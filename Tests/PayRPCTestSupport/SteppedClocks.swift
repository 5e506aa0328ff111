import Foundation
import PayRPCCore
import PayRPCSandbox

/// A wall clock a test steps back and forth by hours, as `date -s` or an NTP correction would,
/// over a monotonic clock that only moves forward: the ``TimeSource`` of wall-clock-jump tests,
/// which need no root.
///
/// The monotonic clock is real elapsed time (when `followingRealTime`) plus whatever the test
/// lets elapse with ``elapse(_:)``; the wall clock is its start plus the same, plus every jump.
public final class SteppedClocks: @unchecked Sendable {
    private let lock = NSLock()
    private let wallStart: Date
    private let origin = ContinuousClock.now
    private let followingRealTime: Bool
    private var jumped: TimeInterval = 0
    private var elapsed: Duration = .zero

    /// - Parameters:
    ///   - wallStart: what the wall clock reads at first.
    ///   - followingRealTime: whether both clocks also move with real time (for loop timers, which
    ///     fire on real time); false freezes them between ``elapse(_:)`` calls, for exact values.
    public init(wallStart: Date = Date(timeIntervalSince1970: 1_790_000_000), followingRealTime: Bool = true) {
        self.wallStart = wallStart
        self.followingRealTime = followingRealTime
    }

    /// The clocks, for a ``RealTimeClock``.
    public var source: TimeSource {
        TimeSource(wall: { self.wall }, monotonic: { self.monotonic })
    }

    /// The monotonic clock's reading.
    public var monotonic: Duration {
        let manual = lock.withLock { elapsed }
        return followingRealTime ? manual + (ContinuousClock.now - origin) : manual
    }

    /// The wall clock's reading, jumps included.
    public var wall: Date {
        let jumps = lock.withLock { jumped }
        let seconds = Double(monotonic.components.seconds) + Double(monotonic.components.attoseconds) / 1e18
        return wallStart.addingTimeInterval(seconds + jumps)
    }

    /// Steps the wall clock by `seconds` (negative: back); the monotonic clock does not move.
    public func jumpWall(by seconds: TimeInterval) {
        lock.withLock { jumped += seconds }
    }

    /// Lets `duration` pass on both clocks, as real time passing would.
    public func elapse(_ duration: Duration) {
        lock.withLock { elapsed += duration }
    }
}
