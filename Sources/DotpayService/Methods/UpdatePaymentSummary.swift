import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Reads a payment's status again (`DPPaymentHistory updatePaymentSummary:`), and tells the
/// history's observers: `dotpay.paymentHistory.didUpdatePaymentSummary`, or
/// `didFailedToUpdatePaymentSummary` when it cannot be read (amount `17.17` in the sandbox).
///
/// A `15.15` payment is `processing` until 600 s have passed on the profile's sandbox clock, then
/// `completed` (and, with a `urlc`, its URLC notification is posted; moving the clock past that
/// time completes it too, without a call).
public enum UpdatePaymentSummary: DotpayMethod {
    public static let name = "dotpay.updatePaymentSummary"
    public static let traits: MethodTraits = [.mutates]

    /// The payment.
    public struct Params: JSONModel, Equatable {
        /// Its operation number.
        public var paymentId: OperationNumber
    }

    public typealias Result = PaymentSummary
    public static let errors = [DotpayErrorKind.paymentNotFound, .updateFailed].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] {
        [DidUpdatePaymentSummary.self, DidFailedToUpdatePaymentSummary.self, UrlcDeliveryFailed.self]
    }
}
