import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Captures an authorization: the second half of "authorize now, capture later" (Payments v2
/// `POST /v2/payments/authorizations/{id}/capture`). The merchant passes the authorization's id
/// from the order's answer (`transaction.id` of an `AUTHORIZE` order), not the card again.
///
/// Without `amount` what remains of the authorization is captured; with it, that much, in the
/// authorization's currency, up to what remains (`MAX_CAPTURE_AMOUNT_EXCEEDED` beyond). A capture
/// with `finalCapture` (or one that takes what remains) closes the authorization (`CAPTURED`);
/// otherwise it is `PARTIALLY_CAPTURED` and may be captured again. An authorization can be
/// captured until its `expiresAt` on the profile's sandbox clock (29 days; `AUTHORIZATION_EXPIRED`
/// after); once closed, `AUTHORIZATION_ALREADY_CAPTURED`. The test card that validates and then
/// refuses captures (`4000000000000341`) is refused here too (`TRANSACTION_REFUSED`).
public enum CaptureAuthorization: NorthstarMethod {
    public static let name = "northstar.captureAuthorization"
    public static let traits: MethodTraits = [.mutates]

    /// The authorization and what to capture of it.
    public struct Params: JSONModel, Equatable {
        /// The authorization's id: `transaction.id` of the authorized order.
        public var authorizationID: OrdersV2ID
        /// How much to capture, in the authorization's currency; absent: all that remains.
        public var amount: OrderMoney?
        /// Whether no capture follows this one (Payments v2 `final_capture`; default false).
        public var finalCapture: Bool = false
        /// The merchant's invoice number for this capture.
        /// - MaxLength: 127
        public var invoiceId: String?
    }

    public typealias Result = AuthorizationCapture
    public static let errors = [
        NorthstarErrorKind.authorizationNotFound, .authorizationExpired, .authorizationAlreadyCaptured,
        .captureAmountExceeded, .transactionRefused, .processorError, .unprocessable, .notConfigured, .backendUnavailable,
    ].map(\.descriptor)
}
