#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks a card processor makes before the issuer sees a card: the number by Luhn and by its
/// brand's lengths, the brand by IIN ranges, the security code's length for the brand, the expiry
/// month against the profile's sandbox clock. Pure functions of their inputs; one copy for every
/// service that takes cards.
public enum CardRules {
    /// The brand a number's prefix names, or nil when none of ``PaymentCardBrand`` has it.
    public static func brand(of number: String) -> PaymentCardBrand? {
        let digits = Array(number.utf8).map { Int($0) - 48 }
        guard digits.count >= 6, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        func prefix(_ count: Int) -> Int { digits.prefix(count).reduce(0) { $0 * 10 + $1 } }
        if digits[0] == 4 { return .visa }
        if (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)) { return .mastercard }
        if prefix(2) == 34 || prefix(2) == 37 { return .amex }
        if prefix(4) == 6011 || prefix(2) == 65 || (644...649).contains(prefix(3)) { return .discover }
        if (3528...3589).contains(prefix(4)) { return .jcb }
        if (300...305).contains(prefix(3)) || prefix(2) == 36 || prefix(2) == 38 { return .dinersClub }
        if prefix(2) == 50 || (56...58).contains(prefix(2)) || prefix(3) == 639 || prefix(2) == 67 { return .maestro }
        return nil
    }

    /// Whether `number` (digits only) passes the Luhn check.
    public static func passesLuhn(_ number: String) -> Bool {
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

    /// Whether `number` is a valid number of `brand`: its length, and the Luhn check.
    public static func isValid(_ number: String, brand: PaymentCardBrand) -> Bool {
        brand.allows(length: number.utf8.count) && passesLuhn(number)
    }

    /// The year and month of a `YYYY-MM` expiry, or nil.
    public static func expiryMonth(_ expiry: String) -> CardExpiry? {
        let parts = expiry.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        return CardExpiry(year: year, month: month)
    }
}

/// The month a card is valid through.
public struct CardExpiry: Sendable, Equatable {
    /// The year (four digits).
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int

    /// The expiry of `month` (1 to 12) of `year`; nil for another month number.
    public init?(year: Int, month: Int) {
        guard (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Whether a card valid through the end of this month is expired at `now` (the profile's
    /// sandbox time), in UTC.
    public func isExpired(at now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.dateComponents([.year, .month], from: now)
        guard let year = today.year, let month = today.month else { return false }
        return (self.year, self.month) < (year, month)
    }
}
