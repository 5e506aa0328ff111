import PayRPCJSON
import Testing

/// ISO 4217 currencies with their minor units, and money checked against them.
@Suite struct CurrencyTests {
    @Test(arguments: [("JPY", 0), ("KRW", 0), ("PLN", 2), ("EUR", 2), ("USD", 2), ("KWD", 3), ("BHD", 3), ("CLF", 4)])
    func knowsTheMinorUnitsOfARealCurrency(code: String, digits: Int) throws {
        let currency = try #require(Currency(code: code))
        #expect(currency.minorUnitDigits == digits)
        #expect(currency.code == code)
    }

    @Test(arguments: ["", "pln", "XXX", "ABC", "EURO", "US"])
    func refusesWhatIsNotAnActiveCode(code: String) {
        #expect(Currency(code: code) == nil)
    }

    @Test func decodesAndEncodesTheCodeAndSaysWhatIsWrong() throws {
        let value = try JSONTape(string: #"["PLN","ZZZ",7]"#).withRoot { root in
            Array(root.arrayElements).map { element in Result { try Currency(json: element) } }
        }
        #expect(try value[0].get() == .PLN)
        #expect(throws: JSONDecodingError.self) { try value[1].get() }
        #expect(throws: JSONDecodingError.self) { try value[2].get() }
        var writer = JSONWriter()
        Currency.JPY.encode(to: &writer)
        #expect(writer.text == #""JPY""#)
    }

    @Test func moneyRefusesMoreDecimalsThanTheMinorUnit() throws {
        #expect(throws: MoneyError.self) { try Money(amount: Amount("10.5")!, currency: .JPY) }
        #expect(throws: MoneyError.self) { try Money(amount: Amount("10.505")!, currency: .EUR) }
        // Trailing zeros are not extra precision.
        let yen = try Money(amount: Amount("1000.00")!, currency: .JPY)
        #expect(yen.minorUnits == 1000)
        #expect(yen.text == "1000")
        let euros = try Money(amount: Amount("10.5")!, currency: .EUR)
        #expect(euros.minorUnits == 1050)
        #expect(euros.text == "10.50")
        #expect(euros.amount.description == "10.5")
        let dinar = Money(minorUnits: 1234, currency: Currency(code: "KWD")!)
        #expect(dinar.text == "1.234")
        #expect(dinar.description == "1.234 KWD")
        do {
            _ = try Money(amount: Amount("1.5")!, currency: .JPY)
            Issue.record("1.5 JPY was accepted")
        } catch {
            #expect(error.description.contains("no minor unit"))
        }
    }
}
