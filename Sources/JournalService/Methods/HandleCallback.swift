import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The Payment Application calls the app back: the URL is decoded, the entry saved with every
/// parameter it carried (and its outbox, in the same transaction), and delivery to the backend
/// starts (`POST /payments/`, then `POST /journals/` with the payment id).
///
/// The callback URL is `opener://open?` with the hand-off's parameters (checked as
/// `journal.openURL` checks them) and, in payrpc's sandbox, `Payment_Result` (`approved`,
/// `declined`, `cancelled`; absent means approved) and `Payment_Number`; the document's full
/// callback spec is not public, so any other parameter is kept as it came.
public enum HandleCallback: JournalMethod {
    public static let name = "journal.handleCallback"

    /// The callback URL.
    public struct Params: JSONModel, Equatable {
        /// The `opener://open?...` URL the Payment Application opened.
        /// - MinLength: 1
        /// - MaxLength: 4096
        public var url: String
    }

    public typealias Result = JournalEntry
    public static let mutates = true
    public static let errors = [JournalErrorKind.invalidURL.descriptor]
    public static var notifications: [any RPCNotification.Type] { [SyncFailed.self] }
}
