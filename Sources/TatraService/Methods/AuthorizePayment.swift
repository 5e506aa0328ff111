import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Authorizes the payment awaiting authorization in this flow with the user's PIN; returns the
/// text to share with the recipient.
///
/// iOS `authorizePayment:completion:`, Android `authorizePayment(AuthData, CompletionCallback<String>)`.
/// Without a payment executed in the current flow (no flow, another flow, or the flow stopped) →
/// `executePaymentError` (`FAILED_PRECONDITION`). A wrong PIN → `wrongPinError`; the third wrong
/// PIN in a row (`wrongPinLimit`) → `wrongPinError` with `applicationBlocked: true`, and from then on
/// every PIN, even the right one, is refused the same way, across restarts, until
/// `sandbox.tatra.resetProfile`. The sandbox PIN is `1234`. A right PIN for a payment of a magic
/// amount `90.05` or `90.06` → `bankTempOOSError` with the `paymentId` to pass to
/// `tatra.resubmitPayment`. A wrong PIN keeps the payment awaiting authorization.
public enum AuthorizePayment: TatraMethod {
    public static let name = "tatra.authorizePayment"
    public static let traits: MethodTraits = [.mutates, .ordered]

    /// The PIN the user entered. Android `AuthData`, iOS the `pincode` argument.
    public struct Params: JSONModel, Equatable {
        /// The PIN. Android `AuthData.pincode`, iOS `pincode`.
        /// - Example: "1234"
        public var pincode: PIN
    }

    /// The text to share with the recipient (the document's `confirmationString`).
    public typealias Result = String
    public static let errors =
        [
            TatraErrorType.wrongPin.descriptor, TatraErrorType.bankTempOOS.descriptor, TatraErrorType.executePayment.descriptor,
        ] + TatraErrorType.bankCall
}
