import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A payment's status was read again (`paymentHistory:didUpdatePaymentSummary:`), pushed to the
/// profile's connections that observe the history (`dotpay.paymentHistory.registerObserver`).
public enum DidUpdatePaymentSummary: RPCNotification {
    public static let name = "dotpay.paymentHistory.didUpdatePaymentSummary"

    /// The payment as it is now.
    public struct Payload: JSONModel, Equatable {
        /// The payment.
        public var paymentSummary: PaymentSummary
    }
}
