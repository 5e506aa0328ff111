import ArgumentParser

/// The requests the bench can send without being given one: each is one JSON-RPC request line whose
/// `"id"` the bench rewrites per request.
enum BuiltInScenario: String, CaseIterable, ExpressibleByArgument {
    /// `rpc.health`: the smallest request the server answers; measures the engine without a service.
    case health
    /// `tatra.executePayment`: a realistic request (~200 bytes) through validation into a service.
    case executePayment = "execute-payment"
    /// `pbba.submitPaymentRequest`: a payment request stored durably (SQLite, `synchronous=FULL`,
    /// group commit) before it is answered; measures the store's write path.
    case durableWrite = "durable-write"

    /// The request line (without newline); its `"id"` is replaced per request.
    var requestLine: String {
        switch self {
        case .health:
            return #"{"jsonrpc":"2.0","id":0,"method":"rpc.health"}"#
        case .executePayment:
            return #"{"jsonrpc":"2.0","id":0,"method":"tatra.executePayment","params":"#
                + BuiltInScenario.executePaymentParams + "}"
        case .durableWrite:
            return #"{"jsonrpc":"2.0","id":0,"method":"pbba.submitPaymentRequest","params":"#
                + #"{"amount":"12.50","currency":"GBP","reference":"Invoice 2026-001 for services"}}"#
        }
    }

    /// The params of the `execute-payment` scenario, in one place so they can be adjusted to what the
    /// Tatra service accepts.
    static let executePaymentParams =
        #"{"amount":"12.50","contact":{"fullName":"Jana Nováková","phones":["+421900123456"]},"#
        + #""reference":"Invoice 2026-001 for services"}"#
}
