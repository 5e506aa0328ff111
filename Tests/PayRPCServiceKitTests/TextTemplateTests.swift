import Foundation
import PayRPCJSON
import PayRPCServiceKit
import PayRPCTestSupport
import Testing

/// A template split once and filled many times: the same text as replacing its placeholders in a
/// `String`, the same JSON, into a reused buffer that never overwrites a text still held.
@Suite struct TextTemplateTests {
    enum Placeholder: String, TemplateSlot {
        case amount, name, reference
    }

    static let templates = [
        "Pay {amount} {currency} to {name}?", "\"{name}\" \\ {reference}\n{amount}  ", "{amount}{name}{reference}",
        "😀 {reference} ", "plain {name} {reference}", "{reference}", "", "   ", "{unclosed", "{currency}{currency}",
    ]

    static let values: [String?] = [
        nil, "", " ", "Jana Nováková", "say \"hi\"\\", "tab\tnew\nline\u{0}", "😀 ž",
        String(repeating: "ab\"", count: 50), "trailing  ",
    ]

    @Test("a name that is neither a placeholder nor a constant is refused, naming it")
    func unknownPlaceholder() {
        #expect(throws: UnknownTemplatePlaceholder(name: "phone")) {
            try TextTemplate<Placeholder>("Pay {amount} to {phone}", constants: ["currency": "EUR"])
        }
        #expect(throws: UnknownTemplatePlaceholder(name: "currency")) { try TextTemplate<Placeholder>("{currency}") }
    }

    @Test("filled, fresh or into a reused text, equals the String put together and writes the same JSON")
    func againstStrings() throws {
        var check = TemplateFillCheck()
        var round = 0
        for template in Self.templates {
            let split = try TextTemplate<Placeholder>(template, constants: ["currency": "EUR"])
            for name in Self.values {
                for reference in Self.values {
                    round += 1
                    let cents = Int64(round * 37 - 500)
                    let amount = MinorUnitsText(cents)
                    var expected = template.replacingOccurrences(of: "{amount}", with: amount.description)
                    expected = expected.replacingOccurrences(of: "{currency}", with: "EUR")
                    expected = expected.replacingOccurrences(of: "{name}", with: name ?? "")
                    expected = expected.replacingOccurrences(of: "{reference}", with: reference ?? "")
                    while expected.hasSuffix(" ") { expected.removeLast() }
                    func values(_ placeholder: Placeholder, _ text: inout TemplateOutput) {
                        switch placeholder {
                        case .amount: text.append(amount)
                        case .name: text.append(name ?? "")
                        case .reference: text.append(reference)
                        }
                    }
                    check.check(split, expected: expected, values)
                }
            }
        }
        check.checkKeptTexts()
    }

    @Test("a reused text keeps its storage when nothing else holds it")
    func reusesStorage() throws {
        let split = try TextTemplate<Placeholder>("Pay {amount} to {name}")
        var text = UTF8Text()
        split.fill(into: &text) { placeholder, out in
            if placeholder == .name { out.append("Jana") } else { out.append(MinorUnitsText(100)) }
        }
        let first = text.withUnsafeBytes { $0.baseAddress }
        split.fill(into: &text) { placeholder, out in
            if placeholder == .name { out.append("Eva") } else { out.append(MinorUnitsText(2)) }
        }
        #expect(text.description == "Pay 0.02 to Eva")
        #expect(text.withUnsafeBytes { $0.baseAddress } == first)
    }
}
