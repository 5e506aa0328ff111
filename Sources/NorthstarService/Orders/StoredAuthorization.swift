import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// An authorization as the sandbox keeps it (namespace `northstar.authorizations`, key its id):
/// its order, the amount authorized and captured so far, whether it is closed, when it expires,
/// and what the sandbox's issuer does with its card.
struct StoredAuthorization: JSONModel, KeyedDocument, Equatable {
    static let namespace = "northstar.authorizations"

    var authorizationID: String
    var orderID: String
    var amount: OrderMoney
    /// What its captures took so far.
    var captured: Amount
    /// No capture may follow (a final capture, or all of it captured).
    var closed: Bool
    var cardOutcome: CardOutcome
    var expiresAt: Date

    /// `CREATED`, `PARTIALLY_CAPTURED` or `CAPTURED` (Payments v2 `authorization_status`).
    var status: String {
        closed ? "CAPTURED" : captured.isZero ? "CREATED" : "PARTIALLY_CAPTURED"
    }

    /// What remains to capture.
    var remaining: Amount { amount.value.subtracting(captured) ?? .zero }

    /// Captures `requested` (nil: what remains) at `now`, closing the authorization when `final`
    /// or when nothing remains; returns the amount captured.
    mutating func capture(_ requested: OrderMoney?, final: Bool, at now: Date) throws(CaptureRefusal) -> OrderMoney {
        guard !closed else { throw .alreadyCaptured }
        guard now < expiresAt else { throw .expired(expiresAt) }
        if let requested, requested.currencyCode != amount.currencyCode { throw .currencyMismatch(amount.currencyCode) }
        let value = requested?.value ?? remaining
        guard value <= remaining else { throw .exceeded(remaining: remaining) }
        guard cardOutcome != .captureFails else { throw .refusedByIssuer }
        captured = captured.adding(value) ?? captured
        closed = final || remaining.isZero
        return OrderMoney(currencyCode: amount.currencyCode, value: value)
    }
}
