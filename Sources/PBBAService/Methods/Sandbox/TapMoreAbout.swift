import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the Consumer taps the "More about Pay by Bank app" link of a payment pop-up; the
/// "More about" pop-up (document section 3.5.1.7) opens over it. Answers that pop-up.
///
/// It closes with `sandbox.pbba.closePopup` (no callback: the delegate has none for it) or
/// `pbba.dismissPopup`, and with the pop-up it was opened from.
public enum TapMoreAbout: PBBAMethod {
    public static let name = "sandbox.pbba.tapMoreAbout"
    public static let traits: MethodTraits = [.runsInline, .mutates, .sandboxOnly]
    public typealias Params = PopupReference
    public typealias Result = MoreAboutPopup
    public static let errors = [PBBAErrorKind.popupNotFound.descriptor, PBBAErrorKind.wrongPopupKind.descriptor]
}
