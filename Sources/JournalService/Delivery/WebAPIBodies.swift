import PayRPCJSON
import PayRPCSchema

/// The body of `POST /journals/`: the payment the first answer named, and the entry.
struct JournalPost: JSONModel, Equatable {
    /// The `/payments/` answer's id.
    /// - Key: payment_id
    var paymentId: String
    /// The journal entry.
    /// - Key: entry_id
    var entryId: String
}

/// An error answer of the Web API: its `message` or `error`, when it is JSON that has one.
/// - OtherMembers: ignored
struct ServerMessage: JSONModel, Equatable {
    /// The message.
    var message: String?
    /// The error, when there is no message.
    var error: String?
}
