#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Reads the caller's profile's sandbox clock (sandbox mode only).
///
/// Every time-dependent rule of every service reads this clock: Tatra's authorization expiry,
/// PBBA's pop-up and request expiry, idempotency retention, journal retries, Dotpay payments that
/// complete later, Northstar order expiry. It is real time plus what `sandbox.clock.advance` and
/// `sandbox.clock.set` added; call deadlines (`_meta.timeoutMs`) stay on the monotonic clock.
public enum SandboxClockGet: SandboxControlMethod {
    public static let name = "sandbox.clock.get"
    public static let traits: MethodTraits = [.runsInline, .sandboxOnly]
    public typealias Params = NoParams
    public typealias Result = SandboxClockState
}

/// Moves the caller's profile's sandbox clock forward (sandbox mode only).
///
/// What became due fires at once: an expired PBBA pop-up sends `pbba.popupDidExpire`, a Tatra
/// authorization lapses, an idempotency key past its retention is forgotten. A test that needed
/// 300 real seconds needs one call. The offset is stored with the profile and survives a restart;
/// `sandbox.reset` returns the profile to real time.
public enum SandboxClockAdvance: SandboxControlMethod {
    public static let name = "sandbox.clock.advance"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly, .changesSandboxControls]
    public typealias Params = ClockAdvanceParams
    public typealias Result = SandboxClockState
}

/// Moves the caller's profile's sandbox clock to a time (sandbox mode only); never backwards.
///
/// A time before the profile's current sandbox time is refused with invalid params (-32602): the
/// clock only moves forward, as payment providers' test clocks do, so stored expiries stay sound.
public enum SandboxClockSet: SandboxControlMethod {
    public static let name = "sandbox.clock.set"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly, .changesSandboxControls]
    public typealias Params = ClockSetParams
    public typealias Result = SandboxClockState
}

/// How far to move the clock.
/// - SchemaName: ClockAdvanceParams
public struct ClockAdvanceParams: JSONModel, Equatable {
    /// Seconds to add (fractions allowed); at most ten years at a time.
    /// - Minimum: 0
    /// - Maximum: 315360000
    /// - Example: 300
    public var seconds: Double
}

/// Where to move the clock.
/// - SchemaName: ClockSetParams
public struct ClockSetParams: JSONModel, Equatable {
    /// The new sandbox time (RFC 3339), not before the current one.
    /// - Example: "2030-01-01T00:00:00Z"
    public var time: Date
}

/// A profile's sandbox clock.
/// - SchemaName: SandboxClockState
public struct SandboxClockState: JSONModel, Equatable {
    /// The profile's sandbox time.
    public var time: Date
    /// The real time when it was read.
    public var realTime: Date
    /// How far the sandbox time is ahead of real time, in seconds.
    public var offsetSeconds: Double
}
