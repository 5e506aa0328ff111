import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The currencies Dotpay takes (`getCurrencyListWithCompletion:`, *dostępne waluty*).
public enum GetCurrencyList: DotpayMethod {
    public static let name = "dotpay.getCurrencyList"
    public typealias Params = NoParams
    public typealias Result = [String]
}
