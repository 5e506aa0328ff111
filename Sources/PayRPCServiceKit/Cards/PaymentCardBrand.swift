/// A card scheme, as the number's issuer identification (IIN) ranges tell it.
public enum PaymentCardBrand: String, Sendable, CaseIterable {
    /// Visa: 4; 13, 16 or 19 digits.
    case visa
    /// Mastercard: 51–55 and 2221–2720; 16 digits.
    case mastercard
    /// American Express: 34 and 37; 15 digits, a four-digit security code.
    case amex
    /// Discover: 6011, 644–649 and 65; 16 to 19 digits.
    case discover
    /// JCB: 3528–3589; 16 to 19 digits.
    case jcb
    /// Diners Club: 300–305, 36 and 38; 14 to 19 digits.
    case dinersClub
    /// Maestro: 50, 56–58, 639 and 67; 12 to 19 digits.
    case maestro

    /// The lengths the brand's numbers have.
    public var lengths: ClosedRange<Int> {
        switch self {
        case .visa: 13...19
        case .mastercard: 16...16
        case .amex: 15...15
        case .discover, .jcb: 16...19
        case .dinersClub: 14...19
        case .maestro: 12...19
        }
    }

    /// Whether a number of `length` digits can be of this brand.
    public func allows(length: Int) -> Bool {
        self == .visa ? [13, 16, 19].contains(length) : lengths.contains(length)
    }

    /// The security code's length.
    public var securityCodeLength: Int { self == .amex ? 4 : 3 }
}
