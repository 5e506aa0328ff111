import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The pop-up expired (`pbbaPopupViewControllerDidExpire:`, document section 4.2.3.1): its
/// `expiryInterval` passed with no decision, and it left the screen. The payment request keeps its
/// own retrieval period (`pbba.paymentStatusChanged` tells when that ends).
///
/// Measured on the sandbox clock of the profile that showed the pop-up: a loop timer fires at the
/// expiry (no thread waits), and `sandbox.clock.advance` past it fires it at once. The sample code answers with an error
/// pop-up for the expired transaction: `suggestedPopup` carries the texts of the document's
/// "Request expired" pop-up (section 3.5.1.5).
public enum PopupDidExpire: RPCNotification {
    public static let name = "pbba.popupDidExpire"

    /// The pop-up that expired.
    public struct Payload: JSONModel, Equatable {
        /// The pop-up.
        public var popupId: String
        /// The payment request it showed; absent for a token payrpc does not know (a request
        /// from another backend that was not registered with `sandbox.pbba.registerExternalRequest`).
        public var requestId: String?
        /// Its code.
        public var brn: String
        /// When it expired.
        public var expiredAt: Date
        /// The texts of the "Request expired" error pop-up, for `showPBBAErrorPopup`.
        public var suggestedPopup: SuggestedErrorPopup
    }
}
