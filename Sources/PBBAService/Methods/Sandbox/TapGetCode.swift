import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the Consumer taps "Get code" on the M-COMM pop-up; it now shows the code and the
/// steps to pay on another device (document section 3.5.1.1). Returns the pop-up as shown.
///
/// Payment pop-ups only: on an error pop-up it fails with `wrongPopupKind`.
public enum TapGetCode: PBBAMethod {
    public static let name = "sandbox.pbba.tapGetCode"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]
    public typealias Params = PopupReference
    public typealias Result = PBBAPopup
    public static let errors = [PBBAErrorKind.popupNotFound.descriptor, PBBAErrorKind.wrongPopupKind.descriptor]
}
