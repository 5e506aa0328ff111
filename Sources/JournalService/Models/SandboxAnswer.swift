import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// How the built-in sandbox Web API answers one POST (`sandbox.journal.setNextAnswers`).
public struct SandboxAnswer: JSONModel, Equatable {
    /// What happens.
    public var outcome: SandboxOutcome
    /// The HTTP status: 200–299 for `accept` (default 200), 400–599 for `serverError` (default
    /// 500); none for the others.
    /// - Minimum: 200
    /// - Maximum: 599
    public var httpStatus: Int?
    /// The server's message, for `serverError` (default `sandbox server error`): answered as
    /// `{"message": ...}`.
    /// - MinLength: 1
    /// - MaxLength: 1000
    /// - Example: "database is read-only"
    public var message: String?
    /// The body of an `accept` answer. Default: `{"id": "pay_…"}` (an id from the profile's seeded
    /// stream) for `/payments/`, `{}` for `/journals/`. `{}` is a 2xx without a payment id; any
    /// other shape tests `journal.configure {paymentIdPointer}`.
    /// - Example: {}
    public var body: JSONValue?

    /// What is wrong with this answer's members for its outcome, each with its pointer under `at`.
    func violations(at pointer: String) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        func refuse(_ member: String, _ message: String) {
            found.append(SchemaViolation(pointer: pointer + "/" + member, keyword: "outcome", message: message))
        }
        switch outcome {
        case .accept:
            if let status = httpStatus, !(200..<300).contains(status) { refuse("httpStatus", "an accept answers 200–299") }
            if message != nil { refuse("message", "an accept carries a body, not a message") }
        case .serverError:
            if let status = httpStatus, !(400..<600).contains(status) { refuse("httpStatus", "a server error answers 400–599") }
            if body != nil { refuse("body", "a server error carries a message, not a body") }
        case .networkFailure, .hang:
            for (member, given) in [("httpStatus", httpStatus != nil), ("message", message != nil), ("body", body != nil)]
            where given {
                refuse(member, "\(outcome.rawValue) answers nothing")
            }
        }
        return found
    }
}
