import Foundation
import PayRPCCore

/// One of the library's pop-ups on the merchant app's screen. It stays until the merchant
/// dismisses it (`pbba.dismissPopup`), the Consumer closes it (`sandbox.pbba.closePopup`) or, still
/// undecided, it expires; a decision on its payment request shows in it (``outcome``).
struct ScreenPopup: Sendable {
    /// Distinguishes this pop-up's timer from a later one's.
    let generation: UInt64
    /// Its id.
    let popupId: String
    /// mcomm, ecomm, error or moreAbout; "Get code" turns mcomm into ecomm.
    var kind: PopupKind
    /// The app that shows it.
    let owner: PopupOwner
    /// When it expires (`pbba.popupDidExpire`): shown + `expiryInterval`. Payment pop-ups only.
    let expiresAt: Date?
    /// The loop timer that fires at ``expiresAt``.
    var timer: ScheduledJob?
    /// The payment request it shows (payment pop-ups and their "More about" pop-ups).
    var request: ShownRequest?
    /// The decision shown in it, once the bank app approved or declined.
    var outcome: PaymentStatus?
    /// The code an error pop-up shows.
    let errorCode: String?
    /// The pop-up a "More about Pay by Bank app" pop-up was opened from.
    let parentPopupId: String?

    /// The payment request a pop-up shows. The secureToken is kept in memory only, to answer the
    /// `zapp://` URL of the pop-up's "Open banking app" button; it is never stored or logged.
    struct ShownRequest: Sendable {
        /// The store key of the request (a keyed hash of its secureToken).
        let requestKey: String
        /// The secureToken, as the merchant app passed it.
        let secureToken: String
        /// The code shown.
        let brn: String
        /// The request's non-secret id; nil while the token is one payrpc does not know (a
        /// request from another backend, until `sandbox.pbba.registerExternalRequest`).
        var requestId: String?
    }
}
