import PayRPCJSON
import PayRPCSchema

/// The error pop-up of `showPBBAErrorPopup` (document section 4.2.3.2, Table 5) as shown.
public struct PBBAErrorPopup: JSONModel, Equatable {
    /// Identifies the pop-up on screen; `sandbox.pbba.closePopup` and `sandbox.pbba.tapTryAgain`
    /// take it.
    public var popupId: String
    /// Always `error`.
    public var kind: PopupKind
    /// The error code shown with the message (Table 5 `errorCode`); absent when none was given.
    public var errorCode: String?
    /// The error title (Table 5 `errorTitle`).
    public var errorTitle: String
    /// The error message (Table 5 `errorMessage`).
    public var errorMessage: String
    /// The button that retries (`pbba.popupRetryPaymentRequest` when tapped).
    public var buttons: [String]
    /// Strings longer than the recommended lengths (5 / 25 / 75); empty when all fit.
    public var warnings: [LengthWarning]
}
