import Foundation
import PayRPCCore

/// One payment request followed by the connection that showed its pop-up (or opened its bank
/// app): where `pbba.paymentStatusChanged` and the pop-up callbacks go.
struct PaymentWatch: Sendable {
    /// Distinguishes this watch from a later one of the same request (a pop-up shown again).
    let id: UInt64
    /// The store key of the request.
    let requestKey: String
    /// The request's non-secret id.
    let requestId: String
    /// The request's code.
    let brn: String
    /// The connection to notify; weak, so a closed connection is not kept alive.
    weak var session: ConnectionSession?
    /// The connection's id (for clean-up when it closes).
    let sessionID: UInt64
    /// The loop of that connection, where the expiry timer runs.
    let loop: any EventLoop
    /// The pop-up on screen for this request, if any.
    var popup: OnScreenPopup?
    /// When the request (and its pop-up) expires.
    let expiresAt: Date
    /// The loop timer that fires at ``expiresAt``.
    var timer: ScheduledJob?

    /// A payment pop-up on screen.
    struct OnScreenPopup: Sendable, Equatable {
        /// Its id.
        let popupId: String
        /// `mcomm` or `ecomm`.
        var kind: PopupKind
    }
}
