#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// `tatra-sandbox.json` as written: read by its generated codec, then turned into the
/// ``TatraSandboxData`` the service runs on (regexes compiled, templates parsed, limits in cents).
struct TatraSandboxFile: JSONModel {
    /// What `tatra.fetchSetupData` answers (its regexes and limits validate payments).
    var setup: Setup
    /// The currency of every amount (ISO 4217), used in the confirmation texts.
    var currency: String
    /// The account owner: whom the user cannot pay (`sameRecipientError`).
    var owner: TatraSandboxData.Owner
    /// The balance before any sandbox payment.
    var balance: Amount
    /// The balance's due date.
    var dueDate: Date
    /// The account's IBAN (electronic format).
    var iban: String
    /// What `tatra.fetchTopContacts` answers.
    var topContacts: [Contact]
    /// What `tatra.fetchContacts` answers.
    var contacts: [Contact]
    /// The PIN.
    /// - Sensitive
    var pin: String
    /// How many wrong PINs in a row block the application.
    var wrongPinLimit: Int
    /// How long a successful `tatra.authorize` lasts, in seconds.
    var authorizationLifetimeSeconds: Int
    /// Whether a new profile has granted the contacts permission.
    var contactPermissionGranted: Bool
    /// Amounts that make a payment fail in a documented way.
    var magicAmounts: [MagicAmount]
    /// Error titles and confirmation templates.
    var texts: TatraSandboxTexts

    /// The setup data as the file gives it (without the nested `makePaymentValues`).
    struct Setup: JSONModel {
        /// Whether PayKey is activated.
        var isActivated: Bool
        /// The reference's regular expression (ICU).
        var descriptionValidationRegex: String
        /// The reference's most UTF-16 code units.
        var descriptionValidationLength: Int
        /// The phone number's regular expression (ICU).
        var phoneValidationRegex: String
        /// The smallest amount, inclusive.
        var minTransactionAmount: Amount
        /// The largest amount, inclusive.
        var maxTransactionAmount: Amount
        /// Where the bank app returns to after the flow.
        var redirectionUri: URL?
    }
}
