import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The SDK's version (`sdkShortVersionString`, *wersja SDK*), to show in the app for support.
public enum GetSdkVersion: DotpayMethod {
    public static let name = "dotpay.getSdkVersion"
    public typealias Params = NoParams
    public typealias Result = String
}
