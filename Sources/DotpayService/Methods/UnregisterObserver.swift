import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Stops this connection observing the history (`DPPaymentHistory unregisterObserver:`); closing the connection does it too.
public enum UnregisterObserver: DotpayMethod {
    public static let name = "dotpay.paymentHistory.unregisterObserver"
    public typealias Params = NoParams
    public typealias Result = NoResult
}
