#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Executes a payment to a contact; returns the text for the authentication screen.
///
/// iOS `executePayment:completion:` (`TATRARequest`), Android `executePayment(TransactionRequest,
/// CompletionCallback<String>)`. The payment then awaits `tatra.authorizePayment` in the current
/// flow; without a flow, this call starts one (an implicit `tatra.onFlowStart`). Executing another
/// payment in the same flow replaces the one awaiting authorization.
///
/// Checks, in this order (sandbox values as shipped in `tatra-sandbox.json`):
/// - amount outside [minTransactionAmount, maxTransactionAmount] (0.01 to 5000.00), or with more
///   than two decimals → `amountLimitError`;
/// - a contact without phones, or whose first phone breaks `phoneValidationRegex`
///   (`^\+421[0-9]{9}$`) → `executePaymentError`;
/// - the owner's own phone `+421900000001` as recipient → `sameRecipientError`;
/// - a reference longer than `descriptionValidationLength` (140 UTF-16 units) or breaking
///   `descriptionValidationRegex` (letters, digits, space and `.,:;/()?!'+-`) → `executePaymentError`;
/// - magic amounts: `90.01` → `generalError`, `90.02` → `serviceUnavaiableError`, `90.03` →
///   `networkError`, `90.04` → `executePaymentError` (the bank declines); `90.05` and `90.06` are
///   accepted here and answered by `tatra.authorizePayment` with `bankTempOOSError`.
public enum ExecutePayment: TatraMethod {
    public static let name = "tatra.executePayment"
    public static let traits: MethodTraits = [.runsInline, .mutates, .ordered]

    /// The payment the user put together. Android `TransactionRequest`, iOS `TATRARequest`.
    public struct Params: JSONModel, Equatable {
        /// The amount, a decimal string in the account's currency. Android `BigDecimal amount`, iOS
        /// `NSNumber* amount`.
        /// - Example: "12.50"
        public var amount: Amount
        /// The recipient. iOS `TATRARequest.contact`, Android `TransactionRequest.recepient` (sic),
        /// accepted under either name.
        /// - Alias: recepient (Android)
        public var contact: Contact
        /// The message for the recipient, checked against the setup's description rules. iOS
        /// `TATRARequest.reference`, Android `TransactionRequest.messageForRecipient` (accepted under
        /// either name).
        /// - Alias: messageForRecipient (Android)
        /// - Example: "Invoice 2026-001 for services"
        public var reference: String?
    }

    /// The text to present on the authentication screen (the document's `confirmationString`): a
    /// string, kept as the UTF-8 bytes it is put together from.
    public typealias Result = UTF8Text
    public static let errors =
        [
            TatraErrorType.amountLimit.descriptor, TatraErrorType.sameRecipient.descriptor,
            TatraErrorType.executePayment.descriptor,
        ] + TatraErrorType.bankCall
}
