import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// One URLC notification in the profile's outbox (namespace `dotpay.urlc`, key its id): the
/// parameters Dotpay posts to the shop's `urlc` when an operation reaches a final status, and how
/// its delivery went. Written in the same transaction as the status it reports; the signature is
/// computed when it is sent, from the shop's PIN (never stored in clear).
public struct UrlcNotification: JSONModel, Equatable {
    /// The profile's URLC notifications (key: the notification id).
    public static let namespace = "dotpay.urlc"

    /// The notification's id: the `Idempotency-Key` of every try, the same after a restart.
    public var notificationId: String
    /// The payment it is about.
    public var paymentId: OperationNumber
    /// The operation it reports: the payment's number, or a refund's.
    public var operationNumber: OperationNumber
    /// `payment` or `refund`.
    public var operationType: String
    /// The operation's status.
    public var operationStatus: PaymentStatus
    /// The shop's URL (`urlc` of the payment).
    public var url: String
    /// The parameters, in the order Dotpay's signature takes them (without `signature`).
    public var fields: [UrlcField]
    /// Where the delivery is.
    public var status: UrlcDeliveryStatus
    /// How many POSTs were tried.
    public var attempts: Int
    /// The HTTP status of the shop's last answer.
    public var httpStatus: Int?
    /// What went wrong last.
    public var lastError: String?
    /// When it was written, on the profile's sandbox clock.
    public var createdAt: Date
    /// When the shop accepted it.
    public var deliveredAt: Date?
}
