import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A card brand, as Orders v2 names them; told by the number's prefix.
public enum CardBrand: String, JSONModel, CaseIterable {
    /// Visa: 4; 13, 16 or 19 digits.
    case visa = "VISA"
    /// Mastercard: 51–55 and 2221–2720; 16 digits.
    case mastercard = "MASTERCARD"
    /// American Express: 34 and 37; 15 digits, a four-digit security code.
    case amex = "AMEX"
    /// Discover: 6011, 644–649 and 65; 16 to 19 digits.
    case discover = "DISCOVER"
    /// JCB: 3528–3589; 16 to 19 digits.
    case jcb = "JCB"
    /// Diners Club: 300–305, 36 and 38; 14 to 19 digits.
    case dinersClub = "DINERS"
}

extension CardBrand {
    /// The Orders v2 brand of a scheme the card rules tell; nil for one Orders v2 does not take (Maestro).
    init?(_ brand: PaymentCardBrand) {
        switch brand {
        case .visa: self = .visa
        case .mastercard: self = .mastercard
        case .amex: self = .amex
        case .discover: self = .discover
        case .jcb: self = .jcb
        case .dinersClub: self = .dinersClub
        case .maestro: return nil
        }
    }
}
