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

/// A `POST /payments/` answer: the payment's id, under whichever of three names the backend uses,
/// as a string or a number.
/// - OtherMembers: ignored
struct PaymentAnswer: JSONModel, Equatable {
    /// `id`.
    var id: JSONValue?
    /// `payment_id`.
    /// - Key: payment_id
    var paymentIdSnakeCase: JSONValue?
    /// `paymentId`.
    var paymentId: JSONValue?

    /// The first of `id`, `payment_id`, `paymentId` that is a non-empty string or a number.
    var anyPaymentId: String? {
        for value in [id, paymentIdSnakeCase, paymentId] {
            switch value {
            case .string(let text)? where !text.isEmpty: return text
            case .number(let text)?: return text
            default: continue
            }
        }
        return nil
    }
}

/// An error answer of the Web API: its `message` or `error`, when it is JSON that has one.
/// - OtherMembers: ignored
struct ServerMessage: JSONModel, Equatable {
    /// The message.
    var message: String?
    /// The error, when there is no message.
    var error: String?
}
