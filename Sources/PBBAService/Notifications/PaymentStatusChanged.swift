import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The payment request's status changed: pushed to the connection that showed its pop-up (or
/// opened its bank app), instead of the polling of the document's sample code (section 4.2.4).
///
/// Sent when the Consumer approves or declines in the bank app (sandbox: `sandbox.pbba.approvePayment`
/// / `declinePayment`, from any connection) and when the request expires. The app then dismisses
/// the pop-up and shows its confirmation screen (sections 4.2.5, 5).
public enum PaymentStatusChanged: RPCNotification {
    public static let name = "pbba.paymentStatusChanged"

    /// The new status of one payment request.
    public struct Payload: JSONModel, Equatable {
        /// The request's non-secret id (from `pbba.submitPaymentRequest`).
        public var requestId: String
        /// The request's code.
        public var brn: String
        /// The new status: completed, declined or expired.
        public var status: PaymentStatus
        /// The pop-up showing the request, if one is on screen (a decided pop-up stays until it is
        /// dismissed or closed; an expiring one is named as it leaves).
        public var popupId: String?
    }
}
