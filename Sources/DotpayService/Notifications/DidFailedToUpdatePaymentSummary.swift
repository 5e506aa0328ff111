import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A payment's status could not be read again
/// (`paymentHistory:didFailedToUpdatePaymentSummary:withError:`, the document's spelling), pushed
/// to the profile's history observers.
public enum DidFailedToUpdatePaymentSummary: RPCNotification {
    public static let name = "dotpay.paymentHistory.didFailedToUpdatePaymentSummary"
    /// The grammatical spelling, for clients that expect it.
    public static let aliases = ["dotpay.paymentHistory.didFailToUpdatePaymentSummary"]

    /// The payment as it was, and the error.
    public struct Payload: JSONModel, Equatable {
        /// The payment.
        public var paymentSummary: PaymentSummary
        /// What went wrong.
        public var error: DotpayErrorData
    }
}
