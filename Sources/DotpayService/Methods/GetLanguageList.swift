import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The languages the payment flow speaks (`getLanguageListWithCompletion:`, *lista dostępnych języków*): at least English and Polish.
public enum GetLanguageList: DotpayMethod {
    public static let name = "dotpay.getLanguageList"
    public typealias Params = NoParams
    public typealias Result = [String]
}
