import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Resubmits a payment the bank answered with `bankTempOOSError`; returns the text to share with
/// the recipient.
///
/// iOS `resubmitPayment:completion:`, Android `resubmitPayment(String, CompletionCallback<String>)`.
/// Held payments belong to the profile (not the flow), so a payment can be resubmitted after a
/// restart. In the sandbox a payment of `90.05` completes on the first resubmission; one of `90.06`
/// fails once more with `bankTempOOSError` (same `paymentId`) and completes on the second. An
/// unknown or already completed `paymentId` → `generalError` (`NOT_FOUND`).
public enum ResubmitPayment: TatraMethod {
    public static let name = "tatra.resubmitPayment"
    public static let traits: MethodTraits = [.mutates, .ordered]

    /// The payment to resubmit.
    public struct Params: JSONModel, Equatable {
        /// The `paymentId` of the `bankTempOOSError`. Android `String paymentId`, iOS `NSString* paymentId`.
        /// - MinLength: 1
        /// - Example: "TB-000001"
        public var paymentId: String
    }

    /// The text to share with the recipient (the document's `confirmationString`).
    public typealias Result = String
    public static let errors = [TatraErrorType.bankTempOOS.descriptor] + TatraErrorType.bankCall
}
