import Foundation
import PayRPCJSON
import PayRPCSchema

/// What the merchant library would do and show for `showPBBAPopup` (document Table 4), or what
/// the M-COMM pop-up shows after the Consumer taps "Get code".
public struct PBBAPopup: JSONModel, Equatable {
    /// The library's decision: open the bank app at once, the M-COMM pop-up, or the E-COMM pop-up.
    public var action: PopupAction
    /// Identifies the pop-up on screen (absent when the bank app was opened without a pop-up).
    /// The sandbox helpers `sandbox.pbba.closePopup` / `tapGetCode` take it.
    public var popupId: String?
    /// The pop-up shown: `mcomm` or `ecomm` (absent when no pop-up is shown).
    public var kind: PopupKind?
    /// The URL the library opens to invoke the PBBA-enabled bank app: `zapp://<secureToken>`
    /// (only for `openBankingApp`).
    /// - Sensitive
    public var bankAppURL: URL?
    /// Whether iOS shows the App Picker, because more than one PBBA-enabled bank app is installed
    /// (section 2.2.1).
    public var appPicker: Bool
    /// The six-character Pay by Bank app code shown on the pop-up (E-COMM); the `brn` param.
    /// - Example: "K7MXQ2"
    public var code: String?
    /// The pop-up's title.
    public var title: String?
    /// The button labels on the pop-up, in order ("Open banking app", "Get code" on M-COMM).
    public var buttons: [String]
    /// The step-by-step instructions on the E-COMM pop-up for paying on another device.
    public var instructions: [String]
    /// Whether the pop-up carries the "More about Pay by Bank app" link.
    public var moreAboutLink: Bool
    /// When the pop-up expires (`pbba.popupDidExpire`): `expiryInterval` after it was shown. The
    /// payment request keeps its own expiry. Without a pop-up: when the request expires.
    public var expiresAt: Date
    /// The remembered "Open banking app" flag (`com.zapp.bankapp.remembered`) after this call.
    public var remembered: Bool
    /// The payment request shown (its non-secret id, as returned by `pbba.submitPaymentRequest`);
    /// absent when the secureToken is not one of payrpc's requests (a request from another
    /// backend: the library shows it all the same).
    public var requestId: String?
}
