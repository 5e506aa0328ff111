import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The profile's SDK settings, as the app reads the properties back (`DotPay.debugMode`,
/// `defaultLanguage`, `DPOneClickManager.enabled`, `useInternalCards`, `treatsCvvAsPassword`)
/// with the system they choose.
public enum GetSettings: DotpayMethod {
    public static let name = "dotpay.getSettings"
    public typealias Params = NoParams
    public typealias Result = SDKSettings
}
