import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A published test card: a number (Luhn-valid) and what the sandbox's issuer does with it.
public struct TestCard: JSONModel, Equatable {
    /// The number.
    public var number: CardNumber
    /// What happens.
    public var outcome: CardOutcome
    /// What the card is for, for the docs.
    public var description: String
}
