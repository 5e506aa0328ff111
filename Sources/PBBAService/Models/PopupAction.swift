import PayRPCJSON
import PayRPCSchema

/// What the merchant library does when `showPBBAPopup` is called (document section 4.2.3.1).
public enum PopupAction: String, JSONModel, Equatable {
    /// The remembered flag is set and a PBBA-enabled bank app is installed: the bank app is
    /// invoked at once through `zapp://<secureToken>`, without a pop-up.
    case openBankingApp
    /// A bank app is installed and the Consumer has not chosen "Open banking app" before: the
    /// M-COMM pop-up with "Open banking app" and "Get code" (section 3.5.1.1).
    case showMCommPopup
    /// No PBBA-enabled bank app is installed: the E-COMM pop-up showing the code and the steps to
    /// pay on another device (section 3.5.1.2).
    case showECommPopup
}

extension PopupAction {
    /// The pop-up the action puts on screen, if any.
    var popupKind: PopupKind? {
        switch self {
        case .openBankingApp: nil
        case .showMCommPopup: .mcomm
        case .showECommPopup: .ecomm
        }
    }
}
