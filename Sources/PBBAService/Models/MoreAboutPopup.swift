import PayRPCJSON
import PayRPCSchema

/// The "More about Pay by Bank app" pop-up (document section 3.5.1.7), open over the payment
/// pop-up whose link the Consumer tapped.
public struct MoreAboutPopup: JSONModel, Equatable {
    /// Its id: `sandbox.pbba.closePopup` closes it (with no callback), `pbba.dismissPopup` too.
    public var popupId: String
    /// Always `moreAbout`.
    public var kind: PopupKind
    /// The payment pop-up it was opened from; it closes with it.
    public var parentPopupId: String
    /// What it says.
    public var content: MoreAboutContent
}
