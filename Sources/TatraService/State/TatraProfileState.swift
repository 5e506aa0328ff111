#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// What the tatra sandbox keeps per profile in the store (namespace `tatra`, key `profile`): the
/// wrong-PIN counter and blocked flag, the authorization's expiry, the contacts permission, the
/// payment sequence, the total paid, and the payments held by `bankTempOOSError`.
///
/// No secret is in it: the PIN is compared, never stored.
struct TatraProfileState: Sendable, Equatable {
    /// The store namespace.
    static let namespace = "tatra"
    /// The document's key.
    static let key = "profile"

    /// Wrong PINs in a row since the last right one.
    var wrongPinAttempts = 0
    /// Whether too many wrong PINs have blocked the application (only `sandbox.tatra.resetProfile`
    /// unblocks it).
    var blocked = false
    /// Until when `tatra.authorize` lets `tatra.fetchBalance` and `tatra.getIban` answer.
    var authorizedUntil: Date?
    /// Whether the profile has ever authorized (the conditions were shown and accepted).
    var everAuthorized = false
    /// The contacts permission set by `sandbox.tatra.setContactPermission`; nil: the data file's.
    var contactPermission: Bool?
    /// The activation set by `sandbox.tatra.setActivated`; nil: the data file's.
    var activated: Bool?
    /// The number of the last payment id given out.
    var paymentSequence = 0
    /// The sum of the completed payments (subtracted from the sandbox balance).
    var paid: Amount = .zero
    /// Payments waiting for `tatra.resubmitPayment`.
    var held: [HeldPayment] = []

    init() {}

    /// Reads the stored document; absent members take their defaults.
    init(document: JSONValue?) {
        guard let document else { return }
        if case .number(let text)? = document["wrongPinAttempts"], let value = Int(text) { wrongPinAttempts = value }
        if case .bool(let value)? = document["blocked"] { blocked = value }
        if let text = document["authorizedUntil"]?.stringValue { authorizedUntil = RFC3339.parse(text) }
        if case .bool(let value)? = document["everAuthorized"] { everAuthorized = value }
        if case .bool(let value)? = document["contactPermission"] { contactPermission = value }
        if case .bool(let value)? = document["activated"] { activated = value }
        if case .number(let text)? = document["paymentSequence"], let value = Int(text) { paymentSequence = value }
        if let value = document["paid"]?.stringValue.flatMap(Amount.init) { paid = value }
        if case .array(let items)? = document["held"] { held = items.compactMap(HeldPayment.init(document:)) }
    }

    /// The stored document.
    var document: JSONValue {
        var members: [JSONValue.Member] = [
            .init("wrongPinAttempts", .int(wrongPinAttempts)),
            .init("blocked", .bool(blocked)),
            .init("everAuthorized", .bool(everAuthorized)),
            .init("paymentSequence", .int(paymentSequence)),
            .init("paid", .string(paid.description)),
            .init("held", .array(held.map(\.document))),
        ]
        if let authorizedUntil { members.append(.init("authorizedUntil", .string(RFC3339.format(authorizedUntil)))) }
        if let contactPermission { members.append(.init("contactPermission", .bool(contactPermission))) }
        if let activated { members.append(.init("activated", .bool(activated))) }
        return .object(members)
    }

    /// Adds a completed payment to ``paid``. Each payment is at most the setup's maximum (two
    /// decimals, checked when the sandbox data is read), so the sum cannot leave 64 bits of cents
    /// before some 10^12 payments; past that it stays at the last sum rather than wrap.
    mutating func addPaid(_ amount: Amount) {
        paid = paid.adding(amount) ?? paid
    }

    /// Whether an authorization is valid at `now`.
    func isAuthorized(at now: Date) -> Bool {
        guard let authorizedUntil else { return false }
        return now < authorizedUntil
    }

    /// Gives out the next payment id (`TB-000001`, ...).
    mutating func nextPaymentId() -> String {
        paymentSequence += 1
        let digits = String(paymentSequence)
        return "TB-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
