import Foundation
import PayRPCCore
import PayRPCSandbox

/// The one clock tests move by hand: real time as the server keeps it (a wall clock read once,
/// then a monotonic one), frozen between ``advance(by:)`` calls so values are exact, with the
/// wall clock steppable under it (``clocks``) for wall-clock-jump tests.
public final class ManualClock: Sendable {
    /// The clocks underneath: ``SteppedClocks/jumpWall(by:)`` steps the wall clock alone.
    public let clocks: SteppedClocks

    /// A clock that reads `start` until it is advanced.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        clocks = SteppedClocks(wallStart: start, followingRealTime: false)
    }

    /// The time now.
    public var now: Date { clocks.wall }

    /// Lets `seconds` pass.
    public func advance(by seconds: TimeInterval) { clocks.elapse(.milliseconds(Int64((seconds * 1000).rounded()))) }

    /// Real time for a ``SandboxControls`` or a store, on this clock.
    public var realTime: RealTimeClock { RealTimeClock(clocks.source) }
}
