/// A payment source that passed the card rules: what may be kept of it and what the sandbox's
/// issuer will do with it.
struct CheckedCard: Sendable, Equatable {
    /// Brand, last digits, expiry.
    var summary: CardSummary
    /// The keyed hash of the number.
    var hash: String
    /// What the sandbox's issuer does with it.
    var outcome: CardOutcome
}
