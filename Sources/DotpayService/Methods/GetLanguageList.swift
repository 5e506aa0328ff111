import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The languages the payment flow speaks (`getLanguageListWithCompletion:`, *lista dostępnych języków*): at least English and Polish.
///
/// The completion's `NSError` (`networkError`, `generalError`) is injected with `sandbox.failNext`.
public enum GetLanguageList: DotpayMethod {
    public static let name = "dotpay.getLanguageList"
    public typealias Params = NoParams
    public typealias Result = [String]
    public static let errors = [DotpayErrorKind.networkError, .generalError].map(\.descriptor)
}
