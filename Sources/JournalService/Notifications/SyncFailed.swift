import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The backend answered an entry's POST with an error: the document's pop-up with the server's
/// message. Pushed to every connection of the profile; the entry is sent again at the next start
/// (or `journal.sync`).
public enum SyncFailed: RPCNotification {
    public static let name = "journal.syncFailed"

    /// The entry and the server's answer.
    public struct Payload: JSONModel, Equatable {
        /// The entry.
        public var entryId: String
        /// `/payments/` or `/journals/`.
        public var endpoint: String
        /// The HTTP status.
        public var httpStatus: Int
        /// The server's message.
        public var message: String
    }
}
