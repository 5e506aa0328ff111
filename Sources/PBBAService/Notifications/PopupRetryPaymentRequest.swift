import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The Consumer tapped the retry button of an error pop-up (`pbbaPopupViewControllerRetryPaymentRequest:`,
/// document section 4.2.3.2): the app may submit the payment request again. Sandbox:
/// `sandbox.pbba.tapTryAgain`. Error pop-ups only.
public enum PopupRetryPaymentRequest: RPCNotification {
    public static let name = "pbba.popupRetryPaymentRequest"

    /// The error pop-up whose button was tapped (it is dismissed).
    public struct Payload: JSONModel, Equatable {
        /// The pop-up.
        public var popupId: String
        /// Its error code, if it had one.
        public var errorCode: String?
    }
}
