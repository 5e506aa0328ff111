import PayRPCJSON
import PayRPCServiceKit
import Testing

/// An amount in minor units printed as decimal text: the same text as `Amount`'s, for every scale,
/// sign and the ends of `Int64`.
@Suite struct MinorUnitsTextTests {
    @Test(
        "cents with two decimals, at least one digit before the point",
        arguments: [
            (Int64(0), "0.00"), (5, "0.05"), (10, "0.10"), (100, "1.00"), (1250, "12.50"), (-7, "-0.07"),
            (-310, "-3.10"), (.max, "92233720368547758.07"), (.min, "-92233720368547758.08"),
        ])
    func cents(units: Int64, text: String) {
        let printed = MinorUnitsText(units)
        #expect(printed.description == text)
        #expect(printed.count == text.utf8.count)
    }

    @Test("every scale from 0 to 18 prints what Amount(units:scale:) prints", arguments: 0...18)
    func scales(scale: Int) {
        for units: Int64 in [0, 1, -1, 9, 99, 101, -100, 999_999, 123_456_789_012, .max, .min, .min + 1] {
            #expect(MinorUnitsText(units, scale: scale).description == Amount(units: units, scale: scale).description)
        }
    }

    @Test("appended to a text: the digits, known to need no escaping")
    func appended() {
        let amount = MinorUnitsText(-123_45)
        let text = UTF8Text(count: amount.count + 4) { writer in
            writer.append("EUR ")
            writer.append(amount)
        }
        #expect(text.description == "EUR -123.45")
        #expect(text.isEscapeFree)
        #expect(MinorUnitsText(1250) == MinorUnitsText(1250))
        #expect(MinorUnitsText(1250) != MinorUnitsText(1250, scale: 1))
    }
}
