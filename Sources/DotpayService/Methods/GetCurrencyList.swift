import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The currencies Dotpay takes (`getCurrencyListWithCompletion:`, *dostępne waluty*).
///
/// The completion's `NSError` (`networkError`, `generalError`) is injected with `sandbox.failNext`.
public enum GetCurrencyList: DotpayMethod {
    public static let name = "dotpay.getCurrencyList"
    public typealias Params = NoParams
    public typealias Result = [String]
    public static let errors = [DotpayErrorKind.networkError, .generalError].map(\.descriptor)
}
