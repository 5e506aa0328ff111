import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The payments made through the service, newest first (`DPPaymentHistory.paymentHistory`), each with its related operations.
public enum PaymentHistory: DotpayMethod {
    public static let name = "dotpay.paymentHistory"
    public typealias Params = NoParams
    public typealias Result = [PaymentSummary]
}
