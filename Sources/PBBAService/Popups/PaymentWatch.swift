import Foundation
import PayRPCCore

/// One payment request followed by the app that showed its pop-up (or opened its bank app): where
/// `pbba.paymentStatusChanged` goes, and the timer of the request's own expiry.
struct PaymentWatch: Sendable {
    /// Distinguishes this watch's timer from a later one's (a pop-up shown again).
    let generation: UInt64
    /// The store key of the request.
    let requestKey: String
    /// The request's non-secret id.
    let requestId: String
    /// The request's code.
    let brn: String
    /// The app that follows it.
    let owner: PopupOwner
    /// The clock the request's expiry is measured on: that of the profile that made it.
    let clock: ProfileClock
    /// The pop-up showing the request, if one was shown.
    let popupId: String?
    /// When the request's retrieval period ends.
    let expiresAt: Date
    /// The loop timer that fires at ``expiresAt``.
    var timer: ScheduledJob?
}
