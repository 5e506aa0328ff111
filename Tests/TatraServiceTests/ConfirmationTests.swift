import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing
@testable import TatraService

/// The confirmation and share texts: written into a connection's reused buffer and straight into
/// the response when nothing in them needs escaping, they must be the same bytes the general path
/// (a `String` escaped by the writer) gives, for any name, phone and reference.
@Suite("tatra confirmation text")
struct ConfirmationTests {
    /// Names that need every kind of care: quotes, backslashes, control characters, what JSON
    /// leaves alone (DEL, `/`), non-ASCII letters, characters outside the BMP, longer than a
    /// small string and than the buffer's first room, then short again.
    static let names = [
        "Jana Nováková", "say \"hi\"", "back\\slash", "line\nbreak\ttab\r\u{8}\u{c}", "\u{1}\u{1f}ctl",
        "del\u{7f} and / slash", "emoji 😀 and 👩‍👩‍👧", "\"", "\\", "J",
        String(repeating: "Ľudmila Ďurčeková-Štúrová ", count: 6), "Peter Horváth",
        String(repeating: "\"\\\n", count: 40), "Ann",
    ]

    /// One payment on `client`, as raw bytes: the whole response line the server wrote.
    private func execute(_ client: TestConnection, id: Int, name: String, amount: String = "12.50") async -> String? {
        let params: JSONValue = [
            "amount": .string(amount), "contact": ["fullName": .string(name), "phones": ["+421900123456"]],
        ]
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": .int(id), "method": "tatra.executePayment", "params": params,
        ]
        client.send(request.jsonText)
        return await client.nextLine()
    }

    /// The response line the general path writes for a text result.
    private func expectedLine(id: Int, _ text: String) -> String {
        JSONValue.object([.init("jsonrpc", "2.0"), .init("id", .int(id)), .init("result", .string(text))]).jsonText
    }

    @Test(
        "names with quotes, backslashes, control characters, non-ASCII and emoji: the general path's bytes, payment after payment on one connection"
    )
    func trickyNames() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        for (index, name) in (Self.names + Self.names.reversed()).enumerated() {
            let line = await execute(client, id: index + 1, name: name)
            #expect(
                line == expectedLine(id: index + 1, "Pay 12.50 EUR to \(name) (+421900123456)?"), "name \(name.debugDescription)")
        }
        // Amounts of every length of digits keep their text.
        let amounts = [
            ("0.01", "0.01"), ("0.1", "0.10"), ("1", "1.00"), ("12.5", "12.50"), ("4999.99", "4999.99"), ("5000", "5000.00"),
        ]
        for (index, (amount, text)) in amounts.enumerated() {
            let line = await execute(client, id: 100 + index, name: "Jana", amount: amount)
            #expect(line == expectedLine(id: 100 + index, "Pay \(text) EUR to Jana (+421900123456)?"))
        }
    }

    @Test("the longest reference the setup allows, non-ASCII, in the share text after authorization")
    func longestReference() async throws {
        let fixture = try await TatraFixture()
        let client = fixture.connect()
        // 140 UTF-16 units, 280 bytes: longer than any buffer's first room.
        let reference = String(repeating: "žŽ", count: 60) + "Invoice 1.,:;/()?!'+-"
        #expect(reference.utf16.count == 141)
        let longest = String(reference.dropLast())
        #expect(longest.utf16.count == 140)
        var params = payment("12.50", reference: longest)
        _ = try await client.call("tatra.executePayment", params)
        let share = try await client.call("tatra.authorizePayment", ["pincode": "1234"])
        #expect(share == .string("I sent you 12.50 EUR with Tatra banka PayKey (payment TB-000001). \(longest)"))
        params = payment("12.50", reference: reference)
        #expect(await client.error("tatra.executePayment", params)?.code.rawValue == -33002)
    }

    /// Templates whose literal text needs escaping itself, or ends in spaces, using every
    /// placeholder.
    static let templates = [
        "Pay {amount} {currency} to {name} ({phone})?", "\"{name}\" \\ {reference}\n{paymentId}  ",
        "{amount}{name}{phone}{reference}{paymentId}", "😀 {reference} ", "plain {name} {reference}",
        "{reference}", "", "   ",
    ]

    /// Values for the placeholders, with and without anything to escape.
    static let values: [String?] = [
        nil, "", " ", "Jana Nováková", "+421900123456", "TB-000001", "say \"hi\"\\", "tab\tnew\nline\u{0}",
        "😀 ž", String(repeating: "ab\"", count: 50), "trailing  ",
    ]

    @Test("filling a template into a reused text equals the text of a String put together, and writes the same JSON")
    func templateAgainstStrings() throws {
        var check = TemplateFillCheck()
        var round = 0
        for template in Self.templates {
            let split = try TextTemplate<PaymentPlaceholder>(template, constants: ["currency": "EUR"])
            for name in Self.values {
                for reference in Self.values {
                    round += 1
                    let phone = Self.values[round % Self.values.count] ?? "+421900123456"
                    let paymentId = Self.values[(round / 3) % Self.values.count]
                    let cents = Int64(round * 37 - 500)
                    var expected = template.replacingOccurrences(of: "{amount}", with: PaymentText.format(cents: cents))
                    expected = expected.replacingOccurrences(of: "{currency}", with: "EUR")
                    expected = expected.replacingOccurrences(of: "{name}", with: name ?? "")
                    expected = expected.replacingOccurrences(of: "{phone}", with: phone)
                    expected = expected.replacingOccurrences(of: "{reference}", with: reference ?? "")
                    expected = expected.replacingOccurrences(of: "{paymentId}", with: paymentId ?? "")
                    while expected.hasSuffix(" ") { expected.removeLast() }
                    func values(_ placeholder: PaymentPlaceholder, _ text: inout TemplateOutput) {
                        switch placeholder {
                        case .amount: text.append(MinorUnitsText(cents))
                        case .name: text.append(name ?? "")
                        case .phone: text.append(phone)
                        case .reference: text.append(reference)
                        case .paymentId: text.append(paymentId)
                        }
                    }
                    check.check(split, expected: expected, values)
                }
            }
        }
        check.checkKeptTexts()
    }
}
