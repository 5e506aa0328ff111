import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Shows the Pay by Bank app error pop-up; strings longer than the recommended lengths come back
/// as warnings.
///
/// Document section 4.2.3.2, Table 5, `[PBBAAppUtils showPBBAErrorPopup:errorCode:errorTitle:errorMessage:delegate:]`.
/// The lengths are not limited; the recommended maxima are 5 characters for the code, 25 for the
/// title and 75 for the message. The calling connection is the `popupDelegate`: tapping the retry
/// button sends `pbba.popupRetryPaymentRequest`, closing it `pbba.popupDidCloseByUser`. Sandbox:
/// `sandbox.pbba.tapTryAgain`, `sandbox.pbba.closePopup`.
public enum ShowPBBAErrorPopup: PBBAMethod {
    public static let name = "pbba.showPBBAErrorPopup"
    public static let traits: MethodTraits = [.runsInline, .mutates]

    /// Table 5 of the document (`popupPresenter` and `popupDelegate` are the calling connection).
    public struct Params: JSONModel, Equatable {
        /// The error code shown with the message (Table 5 `errorCode`); the sample code passes nil.
        /// - MaxLength: 1000
        public var errorCode: String?
        /// The error title (Table 5 `errorTitle`); recommended at most 25 characters.
        /// - MaxLength: 1000
        public var errorTitle: String
        /// The error message (Table 5 `errorMessage`); recommended at most 75 characters.
        /// - MaxLength: 10000
        public var errorMessage: String
    }

    public typealias Result = PBBAErrorPopup
    public static var notifications: [any RPCNotification.Type] { [PopupDidCloseByUser.self, PopupRetryPaymentRequest.self] }
}
