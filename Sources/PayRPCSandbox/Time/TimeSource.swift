#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two clocks payrpc reads, as closures, so tests can move them without root: the wall clock
/// (`CLOCK_REALTIME`, which an administrator or NTP may step back and forth) and a monotonic
/// clock (which only moves forward, at the rate time passes).
///
/// payrpc reads the wall clock once, when a ``RealTimeClock`` is made, and measures everything
/// after on the monotonic clock: a wall-clock step while the server runs moves no sandbox clock,
/// no expiry timer and no idempotency retention. Call deadlines never read either: they are loop
/// timers, monotonic by construction.
public struct TimeSource: Sendable {
    /// The wall clock.
    public var wall: @Sendable () -> Date
    /// Time elapsed since a fixed but arbitrary origin; never goes back.
    public var monotonic: @Sendable () -> Duration

    /// A source reading `wall` and `monotonic`.
    public init(wall: @escaping @Sendable () -> Date, monotonic: @escaping @Sendable () -> Duration) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// The system's clocks: `Date()` and `ContinuousClock` (which keeps counting while the machine
    /// sleeps, so real time stays real time after a suspend).
    public static let system: TimeSource = {
        let origin = ContinuousClock.now
        return TimeSource(wall: { Date() }, monotonic: { ContinuousClock.now - origin })
    }()

    /// Clocks that stand still at `instant` (`serve --frozen-clock`): real time never moves, so
    /// every sandbox clock moves only when a tester advances it, and a seeded transcript repeats
    /// byte for byte. Call deadlines are loop timers and keep running.
    public static func frozen(at instant: Date) -> TimeSource {
        TimeSource(wall: { instant }, monotonic: { .zero })
    }
}
