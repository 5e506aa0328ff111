import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import Testing

/// A wire model with an amount and its currency side by side reaches ``Money`` through the kit's
/// one check (``CarriesMoney/money(rule:)``).
@Suite struct CarriesMoneyTests {
    @Test("bad input first: an unknown code, and too many decimals as written or as a number")
    func refused() throws {
        #expect(throws: MoneyProblem.unknownCurrency("XYZ")) { try WireAmount("10.00", "XYZ").money() }
        #expect(throws: MoneyProblem.tooManyDecimals(try #require(Amount("10.0")), .JPY)) {
            try WireAmount("10.0", "JPY").money()
        }
        #expect(throws: MoneyProblem.tooManyDecimals(try #require(Amount("10.005")), .EUR)) {
            try WireAmount("10.005", "EUR").money(rule: .numeric)
        }
    }

    @Test("the pair as money: decimals as written by default, trailing zeros free when counted as a number")
    func accepted() throws {
        let euros = try WireAmount("10.5", "EUR").money()
        #expect(euros.currency == .EUR && euros.minorUnits == 1050 && euros.text == "10.50")
        #expect(try WireAmount("10.0", "JPY").money(rule: .numeric).minorUnits == 10)
        #expect(try WireAmount("12.500", "EUR").money(rule: .numeric).minorUnits == 1250)
    }
}

/// An amount and a currency code as a wire model writes them, under its own names.
struct WireAmount: CarriesMoney {
    var value: Amount
    var code: String
    init(_ value: String, _ code: String) throws {
        self.value = try #require(Amount(value))
        self.code = code
    }
    var moneyAmount: Amount { value }
    var moneyCurrencyCode: CurrencyCode { code }
}
