import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Deletes every remembered card, in Dotpay and locally (`DPOneClickManager clearData`).
public enum ClearData: DotpayMethod {
    public static let name = "dotpay.clearData"
    public static let traits: MethodTraits = [.mutates, .destructive]
    public typealias Params = NoParams
    public typealias Result = NoResult
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
