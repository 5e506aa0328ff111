import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox only: sets how the built-in sandbox Web API (where entries go when no backend URL is
/// configured) answers the profile's next POSTs, replacing the answers set before; each POST to
/// `/payments/` or `/journals/` takes the next one, and with none left it accepts. A card payment
/// makes two POSTs, a cash payment one; a retried POST takes another answer.
///
/// `accept` answers 2xx: by default `{"id": "pay_…"}` to `/payments/` and `{}` to `/journals/`,
/// or the `body` given (`{}` is a 2xx without a payment id). `serverError` answers its status
/// (default 500) with `{"message": ...}`: the entry ends `serverError` and `journal.syncFailed` goes
/// to every connection of the profile. `networkFailure` drops the connection and `hang` answers
/// nothing until the request times out: both are retried three times, then the entry waits. The
/// answers are kept in the store, so they survive a restart (the resend at start-up takes them).
public enum SandboxSetNextAnswers: JournalMethod {
    public static let name = "sandbox.journal.setNextAnswers"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The answers.
    public struct Params: JSONModel, Equatable {
        /// The answers to the next POSTs, in order; `[]` forgets those set before.
        /// - MaxItems: 100
        public var answers: [SandboxAnswer]
    }

    /// What is set.
    public struct Result: JSONModel, Equatable {
        /// The answers the next POSTs will get, in order.
        public var nextAnswers: [SandboxAnswer]
    }
}
