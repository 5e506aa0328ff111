import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sets the profile's journal settings, replacing what it set before: the Web API's base URL (the
/// document's backend) and where that API's `/payments/` answer carries the payment id. A member
/// left out goes back to the server's default.
///
/// Without a backend URL (here or `serve --journal-backend`), entries go to the built-in sandbox
/// Web API (`sandbox.journal.setNextAnswers` sets its answers); a server started with
/// `--no-sandbox` has none, and entries wait with status `noBackend`.
public enum Configure: JournalMethod {
    public static let name = "journal.configure"
    public static let traits: MethodTraits = [.mutates]

    /// The settings.
    public struct Params: JSONModel, Equatable {
        /// The base URL (`http://127.0.0.1:8080`); null or absent: the server's. A secret: it may
        /// carry credentials (`https://user:secret@host`), so the store keeps it only sealed.
        /// - Format: uri
        /// - Sensitive
        public var backendURL: String?
        /// A JSON Pointer to the payment id in the `/payments/` answer (`/data/payment/id`; `""`
        /// is the whole body). Null or absent: the first of `/id`, `/payment_id`, `/paymentId`
        /// that holds a non-empty string or a number. A card or account payment whose answer has
        /// none there ends `paymentIdMissing` (never posted again); the next `journal.sync` or
        /// start reads its kept answer with the pointer set then.
        /// - MaxLength: 200
        /// - Pattern: ^(/([^~/]|~[01])*)*$
        /// - Example: "/data/id"
        public var paymentIdPointer: String?
    }

    public typealias Result = NoResult
}
