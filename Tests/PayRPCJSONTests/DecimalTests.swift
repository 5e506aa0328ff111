import Foundation
import PayRPCJSON
import Testing

@Suite struct DecimalTests {
    @Test(arguments: ["0", "10", "10.00", "-3.5", "12.50", "0.01", "123456789012345678901234.5678", "-0"])
    func decimalTextParsesExactly(text: String) throws {
        #expect(Decimal.isDecimalText(text))
        let parsed = try #require(Decimal.parseExact(text))
        #expect(parsed == Decimal(string: text, locale: nil))
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "1e5", "1,5", " 1", "1 ", "+1", "12abc", "--1", "1.2.3", "NaN"])
    func notDecimalText(text: String) {
        #expect(!Decimal.isDecimalText(text))
        #expect(Decimal.parseExact(text) == nil)
        let regex = try? NSRegularExpression(pattern: Decimal.decimalPattern)
        let matches = regex?.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
        #expect(!matches)  // the hand-written check agrees with the pattern
    }
}
