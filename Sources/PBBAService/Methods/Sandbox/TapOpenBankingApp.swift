import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the Consumer taps "Open banking app" on the M-COMM pop-up. The library opens the bank
/// app through `zapp://<secureToken>` and remembers the choice (`com.zapp.bankapp.remembered`, in
/// the showing app's profile; document sections 3.5 and 3.5.1.1), so the next `pbba.showPBBAPopup`
/// opens the bank app at once. Answers the URL the library opens.
///
/// Callable from any connection (it plays the Consumer). The pop-up stays on screen. With no bank
/// app installed any more, fails with `noBankAppInstalled` and the flag is cleared.
public enum TapOpenBankingApp: PBBAMethod {
    public static let name = "sandbox.pbba.tapOpenBankingApp"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]
    public typealias Params = PopupReference
    public typealias Result = BankAppLaunch
    public static let errors = [
        PBBAErrorKind.popupNotFound.descriptor, PBBAErrorKind.wrongPopupKind.descriptor,
        PBBAErrorKind.noBankAppInstalled.descriptor,
    ]
}
