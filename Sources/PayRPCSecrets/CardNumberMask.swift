/// Masks card numbers (PANs) for storage, logs and answers: the first six digits (the issuer
/// identification number) and the last four stay, every other digit becomes `*`, as PCI DSS
/// allows to show.
public enum CardNumberMask {
    /// The masked form of `cardNumber`: `"4111111111111111"` → `"411111******1111"`.
    ///
    /// Spaces and hyphens are dropped first. A number shorter than 13 digits keeps only its last
    /// four (never more than a third of it), and one of 4 digits or fewer is masked entirely, so
    /// the result never reveals a short number. Characters other than digits, spaces and hyphens
    /// are masked too (the input is not a card number, and may still be a secret).
    public static func mask(_ cardNumber: String) -> String {
        let characters = Array(cardNumber.filter { $0 != " " && $0 != "-" })
        let count = characters.count
        let keepFirst = count >= 13 ? 6 : 0
        let keepLast = count >= 13 ? 4 : (count > 4 ? min(4, count / 3) : 0)
        var masked = ""
        for (position, character) in characters.enumerated() {
            let visible =
                (position < keepFirst || position >= count - keepLast) && character.isASCII
                && character.isNumber
            masked.append(visible ? character : "*")
        }
        return masked
    }

    /// The digits of a card number typed with spaces or hyphens, or nil when it holds anything
    /// else or is empty: the form to hash with ``SecretHasher/keyedHash(_:context:)`` so that
    /// `"4111 1111 1111 1111"` and `"4111111111111111"` match.
    public static func digits(_ cardNumber: String) -> String? {
        var digits = ""
        for character in cardNumber {
            if character == " " || character == "-" { continue }
            guard character.isASCII, character.isNumber else { return nil }
            digits.append(character)
        }
        return digits.isEmpty ? nil : digits
    }
}
