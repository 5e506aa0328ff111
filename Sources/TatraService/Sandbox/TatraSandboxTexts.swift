import PayRPCJSON
import PayRPCSchema

/// The texts the sandbox puts in its answers: error titles, the contact-permission screen, and the
/// templates of the confirmation strings. From `texts` in `tatra-sandbox.json`.
public struct TatraSandboxTexts: JSONModel, Equatable {
    /// Title of `generalError`.
    public var general: String
    /// Title of `authRequiredError`.
    public var authRequired: String
    /// Title of `executePaymentError`.
    public var executePayment: String
    /// Title of `amountLimitError`.
    public var amountLimit: String
    /// Title of `sameRecipientError`.
    public var sameRecipient: String
    /// Title of `serviceUnavaiableError`.
    public var serviceUnavailable: String
    /// Title of `networkError`.
    public var network: String
    /// Title of `wrongPinError`.
    public var wrongPin: String
    /// Title of `missingContactPermissionError`.
    public var missingContactPermission: String
    /// Subtitle of `missingContactPermissionError`.
    public var missingContactPermissionSubtitle: String
    /// URI of `missingContactPermissionError` (where the permission is granted).
    public var missingContactPermissionUri: String
    /// The text of the authentication screen `tatra.executePayment` returns; placeholders
    /// `{amount}`, `{currency}`, `{name}`, `{phone}`, `{reference}`.
    public var paymentConfirmation: String
    /// The text to share with the recipient that `tatra.authorizePayment` and
    /// `tatra.resubmitPayment` return; placeholders as above plus `{paymentId}`.
    public var paymentShare: String
}
