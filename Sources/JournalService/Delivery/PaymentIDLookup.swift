import PayRPCJSON

/// Where a `/payments/` answer carries the payment id that `/journals/` needs. The document says
/// only "the Payment ID you receive in this response" (its API spec is not public), so a profile
/// names the place with a JSON Pointer (`journal.configure {paymentIdPointer}`); without one the
/// first of ``defaultPointers`` that holds an id is taken.
struct PaymentIDLookup: Sendable, Equatable {
    /// Where an id is looked for when the profile names no pointer: `/id`, `/payment_id`, `/paymentId`.
    static let defaultPointers = ["/id", "/payment_id", "/paymentId"]

    /// The pointers tried, in order.
    let pointers: [String]

    /// The lookup a profile's pointer (nil: the defaults) describes.
    init(pointer: String?) {
        pointers = pointer.map { [$0] } ?? Self.defaultPointers
    }

    /// The id in `answer`: the value at the first pointer that holds a non-empty string or a number.
    func id(in answer: JSONValue?) -> String? {
        guard let answer else { return nil }
        for pointer in pointers {
            switch answer.value(at: pointer) {
            case .string(let text)? where !text.isEmpty: return text
            case .number(let text)?: return text
            default: continue
            }
        }
        return nil
    }

    /// The pointers as a person reads them (`/id, /payment_id or /paymentId`).
    var described: String {
        pointers.count == 1 ? pointers[0] : pointers.dropLast().joined(separator: ", ") + " or " + pointers[pointers.count - 1]
    }
}
