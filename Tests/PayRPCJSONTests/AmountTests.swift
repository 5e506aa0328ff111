import Foundation
import PayRPCJSON
import Testing

/// `Amount` against Foundation's `Decimal` (the oracle, in tests only) on random values: parsing,
/// the text kept with its scale, ordering, rescaling, minor units, sums; and the edge cases.
@Suite struct AmountTests {
    /// A random decimal text of up to 18 significant digits, negative half the time.
    static func randomText(_ generator: inout SystemRandomNumberGenerator) -> String {
        let integerDigits = Int.random(in: 1...12, using: &generator)
        var text = String(Int.random(in: 1...9, using: &generator))
        for _ in 1..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
        if Int.random(in: 0..<6, using: &generator) == 0 { text = "0" }
        let fraction = Int.random(in: 0...min(6, 18 - text.count), using: &generator)
        if fraction > 0 { text += "." + (0..<fraction).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined() }
        return Bool.random(using: &generator) ? "-" + text : text
    }

    @Test("parse, text, order, rescale, minor units and sums agree with Decimal on 3,000 random values")
    func agreesWithDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        var previous: (Amount, Decimal)?
        for _ in 0..<3000 {
            let text = Self.randomText(&generator)
            let amount = try #require(Amount(text), "\(text)")
            let decimal = try #require(Decimal(string: text, locale: nil))
            // Written back as read (a negative zero loses its sign).
            #expect(amount.description == (amount.isZero && text.hasPrefix("-") ? String(text.dropFirst()) : text), "\(text)")
            #expect(Decimal(string: amount.description, locale: nil) == decimal)
            if let (otherAmount, otherDecimal) = previous {
                #expect((amount < otherAmount) == (decimal < otherDecimal), "\(text) < \(otherAmount)")
                #expect((amount == otherAmount) == (decimal == otherDecimal))
                if let sum = amount.adding(otherAmount) {
                    #expect(Decimal(string: sum.description, locale: nil) == decimal + otherDecimal)
                }
                if let difference = amount.subtracting(otherAmount) {
                    #expect(Decimal(string: difference.description, locale: nil) == decimal - otherDecimal)
                }
            }
            for scale in [0, 2, 3] {
                var scaled = decimal * pow(Decimal(10), scale)
                var rounded = Decimal()
                NSDecimalRound(&rounded, &scaled, 0, .plain)
                let exact = rounded == scaled
                #expect((amount.minorUnits(scale: scale) != nil) == exact, "\(text) at scale \(scale)")
                if let units = amount.minorUnits(scale: scale) { #expect(Decimal(units) == scaled) }
                if let rescaled = amount.rescaled(to: scale) { #expect(rescaled == amount && rescaled.scale == scale) }
            }
            previous = (amount, decimal)
        }
    }

    @Test("the text is read in one pass and written back with its scale")
    func textKeepsItsScale() throws {
        #expect(Amount("10.00")?.description == "10.00")
        #expect(Amount("10.00") == Amount("10"))
        #expect(Amount("0.000")?.description == "0.000")
        #expect(Amount("-0")?.isZero == true)
        #expect(Amount("999999999999999999")?.description == "999999999999999999")
        #expect(Amount("0.000000000000000001")?.scale == 18)
    }

    @Test(
        "what is not a decimal string, or is too long, is refused, never rounded",
        arguments: [
            "", "-", "01", "1.", ".5", "1e5", "1,5", " 1", "1 ", "+1", "12abc", "--1", "1.2.3", "NaN",
            "1000000000000000000", "99999999999999999999.99", "0.0000000000000000001",
        ])
    func refused(_ text: String) {
        #expect(Amount(text) == nil)
        #expect(!Amount.isDecimalText(text))
    }

    @Test(
        "the hand-written pattern check agrees with the schema's pattern",
        arguments: [
            "0", "10", "10.00", "-3.5", "01", "1.", ".5", "1e5", "+1", "-0", "12abc",
            // The 18-digit bound: at it, and one past it in the integer part, the fraction, or both.
            "999999999999999999", "1000000000000000000", "0.123456789012345678", "0.1234567890123456789",
            "123456789.123456789", "123456789.1234567890", "-12345678901234567.8", "12345678901234567.89",
            "10.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        ])
    func patternAgreement(_ text: String) {
        let regex = try? NSRegularExpression(pattern: Amount.decimalPattern)
        let matches = regex?.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
        #expect(Amount.isDecimalText(text) == matches)
    }
}
