import PayRPCCore
import PayRPCServiceKit

/// Every northstar error: its stable code (-33300…-33399), its message, and the Orders v2 name,
/// HTTP status and issue it stands for. The wire error, its declaration and `sandbox.failNext`'s
/// sample come from the kit (``ServiceErrorKind``).
public enum NorthstarErrorKind: String, DeclaredErrorKind {
    /// The card issuer or processor declined the card.
    case instrumentDeclined = "INSTRUMENT_DECLINED"
    /// The card is past its expiry month.
    case cardExpired = "CARD_EXPIRED"
    /// The buyer must complete 3-D Secure: follow the `payer-action` link
    /// (`sandbox.northstar.completePayerAction` in the sandbox), then execute the order again.
    case payerActionRequired = "PAYER_ACTION_REQUIRED"
    /// The capture was refused after the card was accepted.
    case transactionRefused = "TRANSACTION_REFUSED"
    /// The processor failed; retrying later may work.
    case processorError = "INTERNAL_SERVICE_ERROR"
    /// No order has that id on this profile.
    case orderNotFound = "INVALID_RESOURCE_ID"
    /// The order was already paid.
    case orderAlreadyCaptured = "ORDER_ALREADY_CAPTURED"
    /// The order expired before it was paid.
    case orderExpired = "ORDER_EXPIRED"
    /// A value breaks an Orders v2 rule (currency, decimals, breakdown, card number, intent);
    /// `details` says which field and which issue.
    case unprocessable = "UNPROCESSABLE_ENTITY"
    /// The nonce is unknown, expired, or was used already.
    case nonceInvalid = "NONCE_INVALID"
    /// `northstar.configure` was not called for the profile (or lacks what the call needs).
    case notConfigured = "CLIENT_NOT_CONFIGURED"
    /// The configured Orders v2 API did not answer (connection failed or timed out).
    case backendUnavailable = "BACKEND_UNAVAILABLE"
    /// The order (intent `AUTHORIZE`) was already authorized: capture its authorization
    /// (`northstar.captureAuthorization`) instead.
    case orderAlreadyAuthorized = "ORDER_ALREADY_AUTHORIZED"
    /// No authorization has that id on this profile (Payments v2 answers `RESOURCE_NOT_FOUND`,
    /// issue `INVALID_RESOURCE_ID`).
    case authorizationNotFound = "AUTHORIZATION_NOT_FOUND"
    /// The authorization's validity ended (on the profile's sandbox clock) before it was captured.
    case authorizationExpired = "AUTHORIZATION_EXPIRED"
    /// The authorization was captured in full, or by a final capture.
    case authorizationAlreadyCaptured = "AUTHORIZATION_ALREADY_CAPTURED"
    /// The capture asks for more than what remains of the authorized amount.
    case captureAmountExceeded = "MAX_CAPTURE_AMOUNT_EXCEEDED"

    public static let range = NorthstarService.codeRange

    /// Each kind's code, message and canonical status, whether it is the call's final answer for
    /// its idempotency key, and the Orders v2 error it stands for. Not final: `BACKEND_UNAVAILABLE`
    /// (the Orders v2 API did not answer: it may have acted, and a repeat with the same key sends the
    /// same `PayPal-Request-Id` to learn what it did) and `CLIENT_NOT_CONFIGURED` (nothing was done:
    /// once configured, the repeat runs). A processor error from the API's 5xx is not final either
    /// (``ServiceError/notFinal()``); the sandbox's own is.
    public var table: (declaration: ServiceErrorDeclaration, answer: OrdersErrorName) {
        switch self {
        case .instrumentDeclined: (.init(-33300, "Instrument declined", .failedPrecondition), .unprocessableEntity)
        case .cardExpired: (.init(-33301, "Card expired", .failedPrecondition), .unprocessableEntity)
        case .payerActionRequired: (.init(-33302, "Payer action required", .failedPrecondition), .unprocessableEntity)
        case .transactionRefused: (.init(-33303, "Transaction refused", .failedPrecondition), .unprocessableEntity)
        case .processorError: (.init(-33304, "Processor error", .internalError), .internalServerError)
        case .orderNotFound: (.init(-33305, "Order not found", .notFound), .resourceNotFound)
        case .orderAlreadyCaptured: (.init(-33306, "Order already captured", .failedPrecondition), .unprocessableEntity)
        case .orderExpired: (.init(-33307, "Order expired", .failedPrecondition), .unprocessableEntity)
        case .unprocessable: (.init(-33308, "Unprocessable entity", .invalidArgument), .unprocessableEntity)
        case .nonceInvalid: (.init(-33309, "Nonce invalid", .notFound), .resourceNotFound)
        case .notConfigured: (.init(-33310, "Client not configured", .unauthenticated, isFinal: false), .authenticationFailure)
        case .backendUnavailable: (.init(-33311, "Backend unavailable", .unavailable, isFinal: false), .serviceUnavailable)
        case .orderAlreadyAuthorized: (.init(-33312, "Order already authorized", .failedPrecondition), .unprocessableEntity)
        case .authorizationNotFound: (.init(-33313, "Authorization not found", .notFound), .resourceNotFound)
        case .authorizationExpired: (.init(-33314, "Authorization expired", .failedPrecondition), .unprocessableEntity)
        case .authorizationAlreadyCaptured:
            (.init(-33315, "Authorization already captured", .failedPrecondition), .unprocessableEntity)
        case .captureAmountExceeded: (.init(-33316, "Capture amount exceeded", .outOfRange), .unprocessableEntity)
        }
    }

    public var declaration: ServiceErrorDeclaration { table.declaration }

    /// The Orders v2 error name.
    public var name: String { table.answer.name }

    /// The HTTP status Orders v2 answers with.
    public var httpStatus: Int { table.answer.httpStatus }

    /// The sample `data` `sandbox.failNext` sends when the tester gives none.
    public var sampleData: NorthstarErrorData {
        NorthstarErrorData(
            type: rawValue, name: name, httpStatus: httpStatus, message: message, debugId: "f0a1b2c3d4e5f",
            details: [ErrorDetail(issue: rawValue, description: message)])
    }
}
