import Foundation
import PayRPCJSON
import PayRPCSchema

/// The bank app invocation of `openBankingApp` (document section 4.4.2, Table 6) or of the
/// M-COMM pop-up's "Open banking app" button.
public struct BankAppLaunch: JSONModel, Equatable {
    /// The URL opened: `zapp://<secureToken>`, the common Pay by Bank app URL scheme.
    /// - Sensitive
    public var url: URL
    /// Whether iOS shows the App Picker because more than one PBBA-enabled bank app is installed
    /// (section 2.2.1).
    public var appPicker: Bool
    /// The remembered flag (`com.zapp.bankapp.remembered`) after the call.
    public var remembered: Bool
}
