import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The Payment Application calls the app back: the URL is decoded, the entry saved with every
/// parameter it carried (and its outbox, in the same transaction), and delivered to the backend
/// (`POST /payments/`, then `POST /journals/` with the payment id). The entry is answered once its
/// delivery has been tried (with its retries), as `journal.list` then shows it.
///
/// The callback URL is `opener://open?` with the hand-off's parameters (checked as
/// `journal.openURL` checks them), `Payment_Result` (`approved`, `declined`, `cancelled`; a
/// callback without it is `Invalid URL`) and, from payrpc's sandbox Payment Application,
/// `Payment_Number`; the document's full callback spec is not public, so any other parameter is
/// kept as it came. The same callback handled again (same `Payment_Number`, same parameters)
/// answers the entry it made, after trying its delivery again if it is not delivered yet (a POST
/// the backend accepted is never sent again): one entry, one payment. The same `Payment_Number` with
/// other parameters is `Invalid URL`. A callback without `Payment_Number` makes a new entry each
/// time (nothing tells two of them apart).
public enum HandleCallback: JournalMethod {
    public static let name = "journal.handleCallback"
    public static let traits: MethodTraits = [.mutates]

    /// The callback URL.
    public struct Params: JSONModel, Equatable {
        /// The `opener://open?...` URL the Payment Application opened.
        /// - MinLength: 1
        /// - MaxLength: 4096
        public var url: String
    }

    public typealias Result = JournalEntry
    public static let errors = [JournalErrorKind.invalidURL.descriptor]
    public static var notifications: [any RPCNotification.Type] { [SyncFailed.self] }
}
