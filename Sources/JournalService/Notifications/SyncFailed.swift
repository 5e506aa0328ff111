import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The backend answered an entry's POST with an error: the document's pop-up with the server's
/// message. Pushed to every connection of the profile (each one that said `rpc.hello` with it, or
/// uses it by default); when the profile has none (the resend at start-up, before any client
/// came), it waits for the first connection of the profile, which gets it once. The entry is sent
/// again at the next start (or `journal.sync`).
///
/// Also sent when `/payments/` accepted a card or account payment without a payment id where the
/// profile looks (`httpStatus` is then the 2xx status, the entry `paymentIdMissing`).
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
        /// The server's message (its JSON body's `message` or `error`, else its text), or what was
        /// missing from a 2xx answer.
        public var message: String
    }
}
