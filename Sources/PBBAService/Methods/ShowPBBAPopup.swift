import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Shows the Pay by Bank app pop-up for a payment request, or opens the bank app at once: answers
/// what the merchant library does.
///
/// Document section 4.2.3.1, Table 4, `[PBBAAppUtils showPBBAPopup:secureToken:brn:expiryInterval:delegate:]`.
/// The calling connection is the `popupPresenter` and the `popupDelegate`: it receives the pop-up's
/// callbacks as notifications. The decision:
/// - remembered flag set and a PBBA-enabled bank app installed → `openBankingApp`
///   (`zapp://<secureToken>`, no pop-up);
/// - a bank app installed, first time → `showMCommPopup` with "Open banking app" and "Get code";
/// - no bank app → `showECommPopup` with the code; a remembered flag is cleared.
///
/// Any well-formed secureToken and code are shown, as the library shows whatever the
/// Distributor issued: only when the token is one of payrpc's own requests (or one registered
/// with `sandbox.pbba.registerExternalRequest`) is the pop-up linked to it (its code checked,
/// its status followed, `requestId` set).
///
/// The pop-up stays on screen until the merchant dismisses it (`pbba.dismissPopup`), the
/// Consumer closes it, or it expires `expiryInterval` seconds later on the profile's sandbox
/// clock (`pbba.popupDidExpire`); a decision shows in it rather than removing it. The interval
/// is the pop-up's own: the request keeps its retrieval period. Status changes are pushed
/// (`pbba.paymentStatusChanged`), also when they are caused from another connection. Sandbox:
/// `sandbox.pbba.approvePayment` / `declinePayment` play the bank app; `closePopup`, `tapGetCode`,
/// `tapOpenBankingApp` and `tapMoreAbout` the Consumer.
public enum ShowPBBAPopup: PBBAMethod {
    public static let name = "pbba.showPBBAPopup"
    public static let traits: MethodTraits = [.mutates]

    /// Table 4 of the document (`popupPresenter` and `popupDelegate` are the calling connection).
    public struct Params: JSONModel, Equatable {
        /// The unique token that identifies the payment request (Table 4 `secureToken`), from
        /// `pbba.submitPaymentRequest` or any other backend.
        public var secureToken: SecureToken
        /// The six-character code that identifies the payment request for the retrieval period
        /// (Table 4 `brn`).
        /// - Example: "K7MXQ2"
        public var brn: BRN
        /// The pop-up's expiry interval in whole seconds (Table 4 `expiryInterval`; the request's
        /// `retrievalExpiryInterval`).
        /// - Minimum: 1
        /// - Maximum: 86400
        public var expiryInterval: Int
    }

    public typealias Result = PBBAPopup
    public static let errors = [
        PBBAErrorKind.brnMismatch.descriptor,
        PBBAErrorKind.requestExpired.descriptor, PBBAErrorKind.paymentAlreadyFinished.descriptor,
    ]
    public static var notifications: [any RPCNotification.Type] {
        [PaymentStatusChanged.self, PopupDidExpire.self, PopupDidCloseByUser.self]
    }
}
