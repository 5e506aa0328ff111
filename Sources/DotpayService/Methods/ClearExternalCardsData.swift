import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Forgets the external cards and the customer id (`clearExternalCardsData`), so that only the SDK's own cards are used.
public enum ClearExternalCardsData: DotpayMethod {
    public static let name = "dotpay.clearExternalCardsData"
    public typealias Params = NoParams
    public typealias Result = NoResult
    public static let mutates = true
    public static let destructive = true
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
