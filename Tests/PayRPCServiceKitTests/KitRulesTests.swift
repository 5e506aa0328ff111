import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit
import Testing

/// The kit's pure pieces: card rules, money, magic tables, sandbox data, domain errors.
@Suite struct KitRulesTests {
    @Test(
        "brands by IIN range, lengths, Luhn and the security code's length",
        arguments: [
            ("4111111111111111", PaymentCardBrand.visa, 3), ("5555555555554444", .mastercard, 3),
            ("2223003122003222", .mastercard, 3),
            ("378282246310005", .amex, 4), ("6011111111111117", .discover, 3), ("3530111333300000", .jcb, 3),
            ("36227206271667", .dinersClub, 3), ("6759649826438453", .maestro, 3),
        ])
    func cards(_ number: String, _ brand: PaymentCardBrand, _ codeLength: Int) {
        #expect(CardRules.brand(of: number) == brand)
        #expect(CardRules.passesLuhn(number))
        #expect(CardRules.isValid(number, brand: brand))
        #expect(brand.securityCodeLength == codeLength)
        var wrongDigit = Array(number)
        wrongDigit[wrongDigit.count - 1] = wrongDigit.last == "0" ? "1" : "0"
        #expect(!CardRules.passesLuhn(String(wrongDigit)))
    }

    @Test func badNumbersAndExpiries() {
        #expect(CardRules.brand(of: "9111111111111111") == nil)
        #expect(CardRules.brand(of: "41111") == nil)
        #expect(!CardRules.passesLuhn(""))
        #expect(!CardRules.passesLuhn("4111 1111 1111 1111"))
        #expect(!CardRules.isValid("41111111111111", brand: .visa))  // 14 digits: not a Visa length
        let june2030 = RFC3339.parse("2030-06-15T12:00:00Z")!
        #expect(CardRules.expiryMonth("2030-06")?.isExpired(at: june2030) == false)
        #expect(CardRules.expiryMonth("2030-05")?.isExpired(at: june2030) == true)
        #expect(CardRules.expiryMonth("2030-13") == nil)
        #expect(CardExpiry(year: 2030, month: 0) == nil)
    }

    @Test func moneyIsCheckedAgainstItsCurrency() throws {
        #expect(try Money.checked(amount: Amount("10.50")!, currencyCode: "EUR").minorUnits == 1050)
        #expect(try Money.checked(amount: Amount("1000")!, currencyCode: "JPY").minorUnits == 1000)
        #expect(throws: MoneyProblem.unknownCurrency("XYZ")) { try Money.checked(amount: Amount("1")!, currencyCode: "XYZ") }
        #expect(throws: MoneyProblem.tooManyDecimals(Amount("10.00")!, .JPY)) {
            try Money.checked(amount: Amount("10.00")!, currencyCode: "JPY")
        }
        #expect("\(MoneyProblem.tooManyDecimals(Amount("1.005")!, .EUR))" == "EUR takes at most 2 decimal(s)")
    }

    @Test func theDecimalsRuleDecidesWhetherTrailingZerosCount() throws {
        // Bad input first: decimals beyond the minor unit, under either rule, and an overflow.
        for rule in [DecimalsRule.asWritten, .numeric] {
            #expect(Money.minorUnits(of: Amount("12.505")!, in: .EUR, rule: rule) == nil)
            #expect(Money.minorUnits(of: Amount("10.5")!, in: .JPY, rule: rule) == nil)
            #expect(Money.minorUnits(of: Amount(units: .max, scale: 0), in: .EUR, rule: rule) == nil)
            #expect(throws: MoneyProblem.tooManyDecimals(Amount("1.0005")!, Currency(code: "KWD")!)) {
                try Money.checked(amount: Amount("1.0005")!, in: Currency(code: "KWD")!, rule: rule)
            }
        }
        #expect(Money.minorUnits(of: Amount("10.00")!, in: .JPY, rule: .asWritten) == nil)
        #expect(Money.minorUnits(of: Amount("10.00")!, in: .JPY, rule: .numeric) == 10)
        #expect(Money.minorUnits(of: Amount("12.500")!, in: .EUR, rule: .numeric) == 1250)
        #expect(Money.minorUnits(of: Amount("-3.1")!, in: .EUR, rule: .asWritten) == -310)
        // The money keeps the amount as written; its text has the currency's decimals.
        let money = try Money.checked(amount: Amount("12.500")!, in: .EUR, rule: .numeric)
        #expect(money.minorUnits == 1250)
        #expect(money.amount.description == "12.500")
        #expect(money.text == "12.50")
        #expect(try Money.checked(amount: Amount("10.00")!, currencyCode: "JPY", rule: .numeric).minorUnits == 10)
    }

    @Test func magicTablesFindTheirEntriesAndNameDuplicates() {
        let table = MagicTable([("90.01", "general"), ("90.05", "oos"), ("90.010", "again")], key: { Amount($0.0)! })
        #expect(table[Amount("90.01")!]?.1 == "general")
        #expect(table[Amount("90.050")!]?.1 == "oos")
        #expect(table[Amount("1.00")!] == nil)
        #expect(table[Amount("90.03")!] == nil)
        #expect(table.duplicateKeys == [Amount("90.01")!])
        #expect(MagicTable([String](), key: { $0 })["x"] == nil)
    }

    @Test func sandboxDataErrorsNameTheFileAndThePointer() throws {
        #expect(try SandboxData.parse(Limits.self, Array(#"{"limit": 3}"#.utf8), file: "l.json").limit == 3)
        #expect(
            throws: SandboxDataError(
                file: "l.json", pointer: "/limit",
                message: "expected an integer from -9223372036854775808 to 9223372036854775807, found string")
        ) {
            try SandboxData.parse(Limits.self, Array(#"{"limit": "3"}"#.utf8), file: "l.json")
        }
        #expect(throws: SandboxDataError(file: "l.json", pointer: "/limit", message: "must be at least 1")) {
            try SandboxData.parse(Limits.self, Array(#"{"limit": 0}"#.utf8), file: "l.json")
        }
        let notJSON = try #require(throws: SandboxDataError.self) {
            try SandboxData.parse(Limits.self, Array("{".utf8), file: "l.json")
        }
        #expect(notJSON.pointer.isEmpty && notJSON.description.hasPrefix("l.json: not JSON"))
        #expect(throws: SandboxDataError(file: "limits-sandbox.json", message: "the file shipped with the service is missing")) {
            try SandboxData.load(Limits.self, from: nil)
        }
    }

    @Test func aShippedFileIsFoundBesideTheExecutableOrInTheBundleOrNowhere() throws {
        #expect(SandboxData.shippedFile("absent.json", target: "NoSuchTarget") { Bundle(path: NSTemporaryDirectory())! } == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shipped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("kit-sandbox.json"))
        let found = SandboxData.shippedFile("kit-sandbox.json", target: "NoSuchTarget") { Bundle(path: folder.path)! }
        #expect(found?.standardizedFileURL.path == folder.appendingPathComponent("kit-sandbox.json").standardizedFileURL.path)
        #if os(Linux)
        // The test binary runs from SwiftPM's build folder, where the services' resources are.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let beside = SandboxData.shippedFile("tatra-sandbox.json", target: "TatraService") { Bundle(path: folder.path)! }
        #expect(
            beside?.path == URL(fileURLWithPath: executable).deletingLastPathComponent().path
                + "/payrpc_TatraService.resources/tatra-sandbox.json")
        #endif
    }

    @Test func aServiceErrorIsItsKindsCodeAndMessageWithItsDataAsTheCodecWritesIt() {
        let error = ServiceError(SampleKind.missing, data: "gone")
        #expect(error.rpcError == RPCError(-33990, "Missing", encodedData: Array(#""gone""#.utf8)))
        #expect(SampleKind.missing.descriptor.sampleData == .string("sample missing"))
        #expect(SampleKind.missing.descriptor.code == -33990)
        #expect(
            SampleKind.codeProblems == [
                "twin and missing share -33990", "twin and missing share the message Missing",
                "outside: -32000 is outside test: -33900…-33999",
            ])
    }

    @Test func formBodiesEncodeEveryByteButTheUnreservedOnesInTheirOrder() throws {
        #expect(HTTPForm.encode([]) == "")
        #expect(HTTPForm.encode([("b", "2"), ("a", "1")]) == "b=2&a=1")
        #expect(
            HTTPForm.encode([("opis płatności", "a+b&c=d ~*-._/")])
                == "opis+p%C5%82atno%C5%9Bci=a%2Bb%26c%3Dd+%7E*-._%2F")
        let request = HTTPRequest("POST", try #require(URL(string: "http://127.0.0.1/urlc")), formFields: [("id", "10000")])
        #expect(request.headers.first { $0.name == "Content-Type" }?.value == "application/x-www-form-urlencoded")
        #expect(request.body == Array("id=10000".utf8))
    }
}

/// A sandbox data model with a check.
struct Limits: SandboxDataModel {
    static let service = "limits"
    static var bundledFile: URL? { nil }
    var limit: Int

    init(json: JSONElement) throws(JSONDecodingError) {
        guard let value = json.member("limit") else { throw .missing("limit") }
        do { limit = try Int(json: value) } catch { throw error.prefixed("limit") }
    }

    func check() throws(SandboxDataProblem) {
        if limit < 1 { throw SandboxDataProblem("/limit", "must be at least 1") }
    }
}

/// Error kinds with a code out of range and two that share one.
enum SampleKind: String, ServiceErrorKind {
    case missing, twin, outside
    static let range = ServiceCodeRange(service: "test", first: -33900)
    var code: RPCError.Code { self == .outside ? -32000 : -33990 }
    var message: String { self == .outside ? "Outside" : "Missing" }
    var status: CanonicalStatus { .notFound }
    var sampleData: String { "sample \(rawValue)" }
}
