/// A journal entry ID: "je_" and 16 lowercase letters or digits.
///
/// Drawn from the profile's seeded stream when a payment is saved.
/// - Pattern: ^je_[a-z0-9]{16}$
/// - Example: "je_0123456789abcdef"
public typealias EntryID = String
