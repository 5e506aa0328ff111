import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Whether the profile's device has at least one Pay by Bank app enabled bank (CFI) app installed.
///
/// Document section 4.4.1, `[PBBAAppUtils isCFIAppAvailable]`. The answer is never cached, as the
/// Operator recommends: every call reads the device again. Sandbox: a new profile has one bank
/// app; `sandbox.pbba.setBankAppsInstalled` changes the count.
public enum IsCFIAppAvailable: PBBAMethod {
    public static let name = "pbba.isCFIAppAvailable"
    public typealias Params = NoParams
    public typealias Result = Bool
}
