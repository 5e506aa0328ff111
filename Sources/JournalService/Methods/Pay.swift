import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The Payment screen's "Payment" button: a cash payment is journaled at once and posted to
/// `/payments/` only; a credit card or account payment answers the `linkPayment://` URL to open,
/// and is journaled when the Payment Application calls back (`journal.handleCallback`).
///
/// A cash entry is answered once its delivery has been tried (with its retries), as
/// `journal.list` then shows it: `delivered`, `serverError` (after `journal.syncFailed`),
/// `waiting` (network failures) or `noBackend`. Any 2xx delivers cash: it needs no payment id.
///
/// Amounts are whole yen: a decimal string such as `"10000"` (`"10000.00"` is the same), which
/// the URL carries as `Amount=10000`. Codes are digit strings, as the document's examples show
/// them. Account payments carry the four account fields and no amount, as the document's URL.
public enum Pay: JournalMethod {
    public static let name = "journal.pay"
    public static let traits: MethodTraits = [.mutates]

    /// The payment.
    public struct Params: JSONModel, Equatable {
        /// Cash, credit card or account.
        public var type: PaymentType
        /// The amount in whole yen; required for cash and credit card, refused for account.
        /// - Example: "10000"
        public var amount: Amount?
        /// The receiving agency's code (account).
        public var receiveAgencyCode: NumericCode?
        /// The receiving agency's name (account).
        /// - MinLength: 1
        /// - MaxLength: 200
        public var receiveAgencyName: String?
        /// The consignor's name (account).
        /// - MinLength: 1
        /// - MaxLength: 200
        public var consignorName: String?
        /// The consignor's code (account).
        public var consignorCode: NumericCode?
    }

    /// The journaled entry (cash) or the URL to open (card, account).
    public struct Result: JSONModel, Equatable {
        /// The entry, for cash.
        public var entry: JournalEntry?
        /// The `linkPayment://` URL, for a credit card or account payment.
        public var url: String?
    }

    public static let errors = [JournalErrorKind.invalidPayment.descriptor]
    public static var notifications: [any RPCNotification.Type] { [SyncFailed.self] }
}
