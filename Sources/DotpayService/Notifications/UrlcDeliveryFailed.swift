import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A URLC notification did not reach the shop: no shop PIN to sign it, the shop answered
/// something other than HTTP 200 with `OK`, or no answer came after the retries. Pushed to every
/// connection of the profile; the notification waits (`sandbox.dotpay.urlcNotifications`) and is
/// sent again at the next start, by `sandbox.dotpay.deliverUrlc`, or (`noPin`) once a PIN is set.
public enum UrlcDeliveryFailed: RPCNotification {
    public static let name = "dotpay.urlcDeliveryFailed"

    /// The notification and what went wrong.
    public struct Payload: JSONModel, Equatable {
        /// The notification.
        public var notificationId: String
        /// The payment it is about.
        public var paymentId: String
        /// `payment` or `refund`.
        public var operationType: String
        /// The shop's URL.
        public var url: String
        /// Where the notification is now.
        public var status: UrlcDeliveryStatus
        /// The shop's HTTP status, when it answered.
        public var httpStatus: Int?
        /// What went wrong.
        public var message: String
    }
}
