import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: installs or uninstalls PBBA-enabled bank apps on the profile's device.
///
/// 0 makes `pbba.showPBBAPopup` show the E-COMM pop-up, and clears the remembered flag (void
/// without a bank app); more than one makes opening the bank app go through the App Picker. A new
/// profile has 1.
public enum SetBankAppsInstalled: PBBAMethod {
    public static let name = "sandbox.pbba.setBankAppsInstalled"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The device's bank apps.
    public struct Params: JSONModel, Equatable {
        /// How many PBBA-enabled bank apps are installed.
        /// - Minimum: 0
        /// - Maximum: 20
        public var count: Int
    }

    public typealias Result = BankAppsState
}
