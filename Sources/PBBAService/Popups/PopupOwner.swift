import Foundation
import PayRPCCore
import PayRPCSandbox

/// The merchant app a pop-up or a followed request belongs to: the connection that showed it
/// (where its callbacks go), that connection's loop (where its timers run) and the profile whose
/// sandbox clock its expiry is measured on.
struct PopupOwner: Sendable {
    /// The connection to notify; weak, so a closed connection is not kept alive.
    weak var session: ConnectionSession?
    /// The connection's id (for clean-up when it closes).
    let sessionID: UInt64
    /// The connection's loop.
    let loop: any EventLoop
    /// The profile of the call that showed the pop-up: its device, its remembered flag, its clock.
    let profile: String
    /// The controls holding that profile's clock.
    let controls: any SandboxAccess

    /// The owner of what the call `context` shows.
    init(_ context: RequestContext) {
        session = context.connection
        sessionID = context.connection.id
        loop = context.connection.loop
        profile = context.profile
        controls = context.sandbox
    }

    /// The profile's sandbox clock.
    var clock: ProfileClock { ProfileClock(profile: profile, controls: controls) }
}

/// One profile's sandbox clock: what an expiry is measured on.
struct ProfileClock: Sendable {
    /// The profile.
    let profile: String
    /// The controls holding its clock.
    let controls: any SandboxAccess

    /// The profile's sandbox time.
    var now: Date { controls.now(profile: profile) }

    /// Whether a change of `profile`'s clock on `controls` is a change of this clock.
    func isClock(of profile: String, on controls: any SandboxAccess) -> Bool {
        self.profile == profile && self.controls === controls
    }
}
