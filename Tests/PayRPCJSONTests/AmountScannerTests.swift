import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// ``Amount/init(utf8:)`` is a scanner written by hand for ``Amount/decimalPattern``: it must
/// accept exactly what the pattern matches (`NSRegularExpression`, the oracle here) and read the
/// units and scale the text spells. Checked on every text of up to six characters over the
/// pattern's own alphabet, and on generated texts of every length from 0 to 40 (signs, dots,
/// leading zeros, digit counts around the 18-digit bound, and stray characters).
@Suite(.longComputation) struct AmountScannerTests {
    static let regex = try! NSRegularExpression(pattern: Amount.decimalPattern)

    static func patternMatches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    /// The units and scale a text the pattern matches spells: its digits as one integer, and the
    /// number of digits after the point.
    static func spelled(_ text: String) -> (units: Int64, scale: Int) {
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.joined()
        let magnitude = Int64(digits)!
        return (negative ? -magnitude : magnitude, parts.count == 2 ? parts[1].count : 0)
    }

    @Test("bad input first: empty, signs alone, dots, stray characters, too many digits")
    func badInput() {
        for text in [
            "", "-", "--", ".", "-.", "0.", "-0.", ".0", "00", "-00", "01", "1..0", "1.0.", "+1", "1-", "1 ", " 1",
            "1e2", "0x1", "1\u{0}", "١", "1.0000000000000000000", "1000000000000000000", "0.0000000000000000000",
        ] {
            #expect(Amount(text) == nil, "\(text.debugDescription)")
            #expect(!Self.patternMatches(text), "\(text.debugDescription)")
        }
    }

    @Test("every text of up to six characters over - 0 1 9 . agrees with the pattern")
    func exhaustiveShortTexts() {
        compare { found in
            let alphabet: [Character] = ["-", "0", "1", "9", "."]
            var texts = [""]
            for _ in 1...6 {
                texts = texts.flatMap { text in alphabet.map { text + String($0) } }
                for text in texts { found.checkAmount(text) }
            }
        }
    }

    @Test("generated texts of every length from 0 to 40 agree with the pattern", arguments: 0...40)
    func generated(length: Int) {
        compare { found in
            var generator = SplitMix64(seed: UInt64(length) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
            for _ in 0..<50 { found.checkAmount(AmountScannerTests.text(length: length, &generator)) }
        }
    }

    /// A text of `length` characters shaped like an amount most of the time: a sign, an integer
    /// part (a leading zero now and then), a point and a fraction at a random place, with a stray
    /// character or a second point sometimes.
    static func text(length: Int, _ generator: inout SplitMix64) -> String {
        guard length > 0 else { return "" }
        var characters: [Character] = []
        if generator.next() % 3 == 0 { characters.append("-") }
        let point = Int(generator.next() % UInt64(length + 2))
        let leadingZero = generator.next() % 4 == 0
        while characters.count < length {
            if characters.count == point, generator.next() % 4 != 0 {
                characters.append(".")
            } else if characters.allSatisfy({ $0 == "-" }) && leadingZero {
                characters.append("0")
            } else {
                characters.append(Character(String(generator.next() % 10)))
            }
        }
        switch generator.next() % 8 {
        case 0:
            characters[Int(generator.next() % UInt64(length))] =
                ["a", " ", "+", "e", "-", ".", "/", ":"][Int(generator.next() % 8)]
        case 1: characters[Int(generator.next() % UInt64(length))] = "."
        default: break
        }
        return String(characters)
    }
}

extension Findings {
    /// Checks that the scanner accepts `text` exactly when the pattern matches it, and then reads
    /// the units and scale it spells; notes any difference.
    mutating func checkAmount(_ text: String) {
        let amount = Amount(text)
        let matches = AmountScannerTests.patternMatches(text)
        guard (amount != nil) == matches else {
            return note("\(text.debugDescription): the scanner says \(amount != nil), the pattern \(matches)")
        }
        if let amount {
            let expected = AmountScannerTests.spelled(text)
            if amount.units != expected.units || amount.scale != expected.scale {
                note("\(text.debugDescription): read as \(amount.units) scale \(amount.scale)")
            }
        }
    }
}
