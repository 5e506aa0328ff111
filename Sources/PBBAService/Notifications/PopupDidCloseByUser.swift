import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The Consumer dismissed a pop-up with its top-right button (`pbbaPopupViewControllerDidCloseByUser:`,
/// document sections 4.2.3.1 and 4.2.3.2). Sandbox: `sandbox.pbba.closePopup`.
///
/// A payment pop-up's request stays in progress: the Consumer may still approve it in the bank
/// app, and `pbba.paymentStatusChanged` still follows.
public enum PopupDidCloseByUser: RPCNotification {
    public static let name = "pbba.popupDidCloseByUser"

    /// The pop-up that was closed.
    public struct Payload: JSONModel, Equatable {
        /// The pop-up.
        public var popupId: String
        /// Which pop-up it was.
        public var kind: PopupKind
        /// The payment request it showed (absent for an error pop-up).
        public var requestId: String?
    }
}
