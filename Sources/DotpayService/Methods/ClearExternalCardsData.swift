import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Forgets the external cards and the customer id (`clearExternalCardsData`), so that only the SDK's own cards are used.
public enum ClearExternalCardsData: DotpayMethod {
    public static let name = "dotpay.clearExternalCardsData"
    public static let traits: MethodTraits = [.mutates, .destructive]
    public typealias Params = NoParams
    public typealias Result = NoResult
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
