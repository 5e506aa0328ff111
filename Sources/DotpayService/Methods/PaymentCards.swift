import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The remembered cards (`DPOneClickManager paymentCards`): the internal ones unless hidden, and the external ones.
public enum PaymentCards: DotpayMethod {
    public static let name = "dotpay.paymentCards"
    public typealias Params = NoParams
    public typealias Result = [OneClickPaymentCard]
}
