#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks Orders v2 makes on a card before it reaches the issuer: the number by Luhn and by
/// its brand's lengths, the security code's length for the brand, the expiry month against the
/// profile's sandbox clock. Pure functions of their inputs.
enum CardRules {
    /// The brand a number's prefix names, or nil when no supported brand has it.
    static func brand(of number: String) -> CardBrand? {
        let digits = Array(number.utf8).map { Int($0) - 48 }
        func prefix(_ count: Int) -> Int {
            digits.prefix(count).reduce(0) { $0 * 10 + $1 }
        }
        guard digits.count >= 6 else { return nil }
        if digits[0] == 4 { return .visa }
        if (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)) { return .mastercard }
        if prefix(2) == 34 || prefix(2) == 37 { return .amex }
        if prefix(4) == 6011 || prefix(2) == 65 || (644...649).contains(prefix(3)) { return .discover }
        if (3528...3589).contains(prefix(4)) { return .jcb }
        if (300...305).contains(prefix(3)) || prefix(2) == 36 || prefix(2) == 38 { return .dinersClub }
        return nil
    }

    /// The lengths a brand's numbers have.
    static func lengths(of brand: CardBrand) -> Set<Int> {
        switch brand {
        case .visa: [13, 16, 19]
        case .mastercard: [16]
        case .amex: [15]
        case .discover, .jcb: Set(16...19)
        case .dinersClub: Set(14...19)
        }
    }

    /// The security code's length for a brand.
    static func securityCodeLength(of brand: CardBrand) -> Int { brand == .amex ? 4 : 3 }

    /// Whether `number` (digits only) passes the Luhn check.
    static func passesLuhn(_ number: String) -> Bool {
        var sum = 0
        for (index, byte) in number.utf8.reversed().enumerated() {
            var digit = Int(byte) - 48
            guard (0...9).contains(digit) else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return !number.isEmpty && sum % 10 == 0
    }

    /// The year and month of a `YYYY-MM` expiry, or nil.
    static func expiryMonth(_ expiry: String) -> (year: Int, month: Int)? {
        let parts = expiry.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        return (year, month)
    }

    /// Whether a card valid through the end of `expiry`'s month is expired at `now` (UTC).
    static func isExpired(_ expiry: (year: Int, month: Int), at now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.dateComponents([.year, .month], from: now)
        guard let year = today.year, let month = today.month else { return false }
        return (expiry.year, expiry.month) < (year, month)
    }
}
