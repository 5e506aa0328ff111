import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// What the tatra sandbox keeps per profile in the store (namespace `tatra`, key `profile`): the
/// wrong-PIN counter and blocked flag, the authorization's expiry, the contacts permission, the
/// payment sequence, the total paid, and the payments held by `bankTempOOSError`.
///
/// No secret is in it: the PIN is compared, never stored. Stored with its generated codec; every
/// member has a default, so a document of an older version (without `activated`) still reads.
struct TatraProfileState: JSONModel, ProfileDocument, Equatable {
    /// The store namespace.
    static let namespace = "tatra"
    /// The document's key.
    static let key = "profile"

    /// Wrong PINs in a row since the last right one.
    var wrongPinAttempts: Int = 0
    /// Whether too many wrong PINs have blocked the application (only `sandbox.tatra.resetProfile`
    /// unblocks it).
    var blocked: Bool = false
    /// Until when `tatra.authorize` lets `tatra.fetchBalance` and `tatra.getIban` answer.
    var authorizedUntil: Date? = nil
    /// Whether the profile has ever authorized (the conditions were shown and accepted).
    var everAuthorized: Bool = false
    /// The contacts permission set by `sandbox.tatra.setContactPermission`; nil: the data file's.
    var contactPermission: Bool? = nil
    /// The activation set by `sandbox.tatra.setActivated`; nil: the data file's.
    var activated: Bool? = nil
    /// The number of the last payment id given out.
    var paymentSequence: Int = 0
    /// The sum of the completed payments (subtracted from the sandbox balance).
    var paid: Amount = .zero
    /// Payments waiting for `tatra.resubmitPayment`.
    var held: [HeldPayment] = []

    init() {}

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
