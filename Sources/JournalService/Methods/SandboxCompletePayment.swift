import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox only: plays the Payment Application, which takes the `linkPayment://` URL, lets the
/// user pay, and calls the app back; answers the callback URL to pass to `journal.handleCallback`.
///
/// The callback carries the hand-off's parameters as received, `Payment_Result` and
/// `Payment_Number` (from the profile's seeded stream).
public enum SandboxCompletePayment: JournalMethod {
    public static let name = "sandbox.journal.completePayment"
    public static let traits: MethodTraits = [.runsInline, .sandboxOnly]

    /// The hand-off and the user's decision.
    public struct Params: JSONModel, Equatable {
        /// The `linkPayment://open?...#opener://` URL.
        /// - MinLength: 1
        /// - MaxLength: 4096
        public var url: String
        /// `approved` (default), `declined` or `cancelled`.
        public var result: PaymentOutcome = "approved"
    }

    /// The callback.
    public struct Result: JSONModel, Equatable {
        /// The `opener://open?...` URL the Payment Application opens.
        public var callbackURL: String
    }

    public static let errors = [JournalErrorKind.invalidURL.descriptor]
}
