import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The merchant app dismisses a pop-up it shows (document section 4.2, journey step 5, "Dismiss the
/// Pay by Bank app pop-up"; the sample code dismisses it once an E-COMM payment has finished).
///
/// The pop-up leaves the screen with no callback (`pbba.popupDidCloseByUser` is for the Consumer's
/// close button); a payment request stays followed, so `pbba.paymentStatusChanged` still comes.
/// Only the connection that showed the pop-up can dismiss it: for any other, it is not found.
public enum DismissPopup: PBBAMethod {
    public static let name = "pbba.dismissPopup"
    public static let traits: MethodTraits = [.runsInline, .mutates]
    public typealias Params = PopupReference
    public typealias Result = NoResult
    public static let errors = [PBBAErrorKind.popupNotFound.descriptor]
}
