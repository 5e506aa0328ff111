import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the shop refunds a completed payment, in whole or in part, as many times as its
/// amount allows (*transakcje powiązane*, later refunds visible in the history).
///
/// The refund is a related operation of the payment (`type: refund`, its own operation number,
/// `completed`); the payment stays `completed`. The history's observers get
/// `dotpay.paymentHistory.didUpdatePaymentSummary`, and a payment with a `urlc` posts the refund's
/// URLC notification (`operation_type: refund`, `operation_related_number` the payment's number).
public enum Refund: DotpayMethod {
    public static let name = "sandbox.dotpay.refund"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The payment and how much.
    public struct Params: JSONModel, Equatable {
        /// The payment's operation number.
        public var paymentId: OperationNumber
        /// How much to refund, in the payment's currency; all that is left when absent.
        /// - Example: "40.00"
        public var amount: Amount?
    }

    /// The payment with the refund among its related operations.
    public typealias Result = PaymentSummary
    public static let errors = [DotpayErrorKind.paymentNotFound, .refundRefused].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] { [DidUpdatePaymentSummary.self, UrlcDeliveryFailed.self] }
}
