import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Makes this connection an observer of the history (`DPPaymentHistory registerObserver:`): it receives `dotpay.paymentHistory.didUpdatePaymentSummary` and `didFailedToUpdatePaymentSummary`.
public enum RegisterObserver: DotpayMethod {
    public static let name = "dotpay.paymentHistory.registerObserver"
    public typealias Params = NoParams
    public typealias Result = NoResult
}
