import PayRPCJSON
import PayRPCSchema

/// The sandbox device's bank apps and the merchant app's remembered flag.
public struct BankAppsState: JSONModel, Equatable {
    /// How many PBBA-enabled bank (CFI) apps are installed on the profile's device.
    public var count: Int
    /// The remembered "Open banking app" flag (`com.zapp.bankapp.remembered`).
    public var remembered: Bool
}
