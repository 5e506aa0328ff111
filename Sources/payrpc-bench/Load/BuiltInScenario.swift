import ArgumentParser

/// The requests the bench can send without being given one. Each case declares its whole scenario in
/// ``scenario``: the request line (whose `"id"` the bench rewrites per request), what a connection
/// must send before it, and which error, if any, is its expected answer.
enum BuiltInScenario: String, CaseIterable, ExpressibleByArgument {
    /// `rpc.health`: the smallest request the server answers; measures the engine without a service.
    case health
    /// `tatra.executePayment`: a realistic request (~200 bytes) through validation into a service.
    case executePayment = "execute-payment"
    /// `pbba.submitPaymentRequest`: a payment request stored durably (SQLite, `synchronous=FULL`,
    /// group commit) before it is answered; measures the store's write path.
    case durableWrite = "durable-write"
    /// `tatra.authorizePayment` with a wrong PIN: a counter update (the profile's `wrongPinAttempts`)
    /// stored durably before the `wrongPinError` (-33007) is answered. Needs a server whose Tatra
    /// sandbox data has a `wrongPinLimit` above the number of calls (`payrpc serve --sandbox-data
    /// tatra=FILE`): at the limit the application is blocked, and a blocked PIN check writes nothing.
    case wrongPin = "wrong-pin"

    /// The scenario: request, set-up and expected answer.
    var scenario: LoadScenario {
        switch self {
        case .health:
            return LoadScenario(requestLine: #"{"jsonrpc":"2.0","id":0,"method":"rpc.health"}"#)
        case .executePayment:
            return LoadScenario(requestLine: BuiltInScenario.executePaymentRequest)
        case .durableWrite:
            return LoadScenario(
                requestLine: #"{"jsonrpc":"2.0","id":0,"method":"pbba.submitPaymentRequest","params":"#
                    + #"{"amount":"12.50","currency":"GBP","reference":"Invoice 2026-001 for services"}}"#)
        case .wrongPin:
            // The payment to authorize lives in the connection's flow, so each connection executes
            // one first; a wrong PIN keeps it awaiting authorization, so one is enough.
            return LoadScenario(
                requestLine: #"{"jsonrpc":"2.0","id":0,"method":"tatra.authorizePayment","params":{"pincode":"0000"}}"#,
                setupLines: [BuiltInScenario.executePaymentRequest],
                expectedErrorCode: -33007,
                depthLimit: (
                    1,
                    "tatra.authorizePayment allows one authorization in flight per connection "
                        + "(a second is refused as \"being authorized already\"); use more --connections instead"
                ))
        }
    }

    /// The request line of `execute-payment` (also the set-up of `wrong-pin`).
    private static let executePaymentRequest =
        #"{"jsonrpc":"2.0","id":0,"method":"tatra.executePayment","params":"# + executePaymentParams + "}"

    /// The params of the `execute-payment` scenario, in one place so they can be adjusted to what the
    /// Tatra service accepts.
    static let executePaymentParams =
        #"{"amount":"12.50","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]},"#
        + #""reference":"Invoice 2026-001 for services"}"#
}
