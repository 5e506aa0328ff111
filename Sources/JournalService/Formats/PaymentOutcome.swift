/// A payment outcome: approved, declined or cancelled.
/// - Pattern: ^(approved|declined|cancelled)$
/// - Example: "approved"
public typealias PaymentOutcome = String
