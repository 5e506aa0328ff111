import Foundation
import PayRPCJSON
import PayRPCServiceKit
import Testing
@testable import TatraService

@Suite("tatra sandbox data")
struct SandboxDataTests {
    @Test("the shipped file loads, with the documented values")
    func bundled() throws {
        let data = try SandboxData.load(TatraSandboxData.self, from: nil)
        #expect(data.setup.minTransactionAmount == Amount("0.01"))
        #expect(data.setup.maxTransactionAmount == Amount("5000"))
        #expect(data.setup.makePaymentValues == AmountValues(minValue: Amount("0.01")!, maxValue: Amount("5000.00")!))
        #expect(data.owner.phone == "+421900000001")
        #expect(data.wrongPinLimit == 3)
        #expect(data.authorizationLifetime == .seconds(300))
        #expect(data.pin.accepts("1234"))
        #expect(!data.pin.accepts("1235"))
        #expect("\(data.pin)" == "****")
        #expect(data.magic(for: Amount("90.050")!)?.outcome == .bankTempOOS)
        #expect(data.phoneRegex.matchesWhole("+421900123456"))
        #expect(!data.phoneRegex.matchesWhole("+421900123456\n"))
        #expect(data.descriptionRegex.matchesWhole("Invoice 2026-001 for services"))
    }

    @Test("--sandbox-data FILE replaces the shipped data")
    func override() throws {
        let shipped = try #require(TatraSandboxData.bundledFile)
        var text = try String(contentsOf: shipped, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"wrongPinLimit\": 3", with: "\"wrongPinLimit\": 5")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tatra-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try SandboxData.load(TatraSandboxData.self, from: file).wrongPinLimit == 5)
    }

    @Test("a broken file is refused with the field named")
    func broken() throws {
        let shipped = try #require(TatraSandboxData.bundledFile)
        let text = try String(contentsOf: shipped, encoding: .utf8)
        let badRegex = text.replacingOccurrences(
            of: #""phoneValidationRegex": "^\\+421[0-9]{9}$""#,
            with: #""phoneValidationRegex": "([""#)
        #expect(badRegex != text)
        #expect { try SandboxData.parse(TatraSandboxData.self, Array(badRegex.utf8), file: "t.json") } throws: { error in
            (error as? SandboxDataError)?.pointer == "/setup/phoneValidationRegex"
        }
        let badAmount = text.replacingOccurrences(of: #""balance": "1523.47""#, with: #""balance": "12,5""#)
        #expect { try SandboxData.parse(TatraSandboxData.self, Array(badAmount.utf8), file: "t.json") } throws: { error in
            (error as? SandboxDataError)?.pointer == "/balance" && "\(error)".hasPrefix("t.json: /balance: ")
        }
        let badTemplate = text.replacingOccurrences(of: "Pay {amount}", with: "Pay {amout}")
        #expect { try SandboxData.parse(TatraSandboxData.self, Array(badTemplate.utf8), file: "t.json") } throws: { error in
            (error as? SandboxDataError)?.pointer == "/texts/paymentConfirmation" && "\(error)".contains("{amout}")
        }
        for (code, words) in [("XYZ", "not an active ISO 4217"), ("JPY", "two-digit minor unit")] {
            let badCurrency = text.replacingOccurrences(of: #""currency": "EUR""#, with: "\"currency\": \"\(code)\"")
            #expect(badCurrency != text)
            #expect { try SandboxData.parse(TatraSandboxData.self, Array(badCurrency.utf8), file: "t.json") } throws: { error in
                (error as? SandboxDataError)?.pointer == "/currency" && "\(error)".contains(words)
            }
        }
        #expect(throws: SandboxDataError.self) {
            try SandboxData.load(TatraSandboxData.self, from: URL(fileURLWithPath: "/nonexistent/tatra.json"))
        }
    }

    @Test("amounts are formatted with two decimals")
    func amounts() {
        #expect(PaymentText.amount(Amount("12.5")!) == "12.50")
        #expect(PaymentText.amount(Amount("5000")!) == "5000.00")
        #expect(PaymentText.amount(Amount("0.01")!) == "0.01")
        #expect(PaymentText.amount(Amount("-3.1")!) == "-3.10")
        #expect(PaymentText.amount(Amount("12.500")!) == "12.50")
        #expect(euroCents(Amount("12.50")!) == 1250)
        #expect(euroCents(Amount("12.500")!) == 1250)
        #expect(euroCents(Amount("12.505")!) == nil)
        #expect(euroCents(Amount("9007199254740.993")!) == nil)
        #expect(euroCents(Amount("9007199254740.99")!) == 900_719_925_474_099)
        #expect(PaymentText.amount(cents: 1250) == Amount("12.5"))
        #expect(PaymentText.format(cents: 5) == "0.05")
        #expect(PaymentText.format(cents: 0) == "0.00")
        #expect(PaymentText.format(cents: 100) == "1.00")
        #expect(PaymentText.format(cents: 1250) == "12.50")
        #expect(PaymentText.format(cents: -310) == "-3.10")
        #expect(PaymentText.format(cents: -7) == "-0.07")
        #expect(PaymentText.format(cents: .max) == "92233720368547758.07")
        #expect(PaymentText.format(cents: 10) == "0.10")
        for cents: Int64 in [1, 9, 99, 101, 999_999, -1, -100, 123_456_789_012] {
            #expect(PaymentText.format(cents: cents) == Amount(units: cents, scale: 2).description)
        }
        #expect(PaymentText.format(cents: .min) == "-92233720368547758.08")
    }

    @Test("exact cents agree with Decimal arithmetic (the test's oracle), across scales, signs and the bounds")
    func exactCentsAgreeWithDecimalArithmetic() {
        /// The definition: amount × 100 is a whole number that fits 64 bits.
        func reference(_ text: String) -> Int64? {
            var scaled = Decimal(string: text, locale: nil)! * 100
            var rounded = Decimal()
            NSDecimalRound(&rounded, &scaled, 0, .plain)
            guard rounded == scaled, rounded.magnitude <= Decimal(Int64.max) else { return nil }
            return NSDecimalNumber(decimal: rounded).int64Value
        }
        var texts = [
            "0", "0.00", "-0.01", "-3.10", "0.001", "100", "5000.00", "9999999999999.99",
            "10000000000000", "10000000000000.00", "99999999999999.99", "12345678901234567.8",
            "92233720368547758.07", "92233720368547758.08", "-92233720368547758.07", "0.000000000000000001",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let whole = UInt64.random(in: 0..<(UInt64(1) << UInt64.random(in: 1...50, using: &generator)), using: &generator)
            let decimals = Int.random(in: 0...5, using: &generator)
            var text = String(whole)
            if decimals > 0 {
                text += "." + String((0..<decimals).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            }
            texts.append(Bool.random(using: &generator) ? "-" + text : text)
        }
        for text in texts {
            let amount = Amount(text)
            // Amount holds 18 significant digits (Int64 units); a longer text is refused, never rounded.
            let digits = text.filter(\.isNumber).drop { $0 == "0" }.count
            #expect((amount != nil) == (digits <= 18), "\(text)")
            guard let amount else { continue }
            #expect(euroCents(amount) == reference(text), "\(text)")
        }
    }
}

/// Cents of an amount in the shipped file's currency, by the kit's money check as the service runs it.
private func euroCents(_ amount: Amount) -> Int64? { Money.minorUnits(of: amount, in: .EUR, rule: .numeric) }
