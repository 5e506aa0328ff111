import PayRPCJSON
import PayRPCServiceKit
import Testing

/// Checks a ``PayRPCServiceKit/TextTemplate`` filled both ways, into a fresh text and over one text
/// reused from fill to fill: each equals the `String` a test put together, writes the JSON string
/// `JSONWriter` writes for that `String`, and knows whether it needs escaping. Every few fills a
/// copy of the reused text is kept, and ``checkKeptTexts()`` says whether a later fill wrote into
/// its bytes.
public struct TemplateFillCheck {
    private var reused = UTF8Text()
    private var kept: [(UTF8Text, String)] = []
    private var fills = 0

    public init() {}

    /// Fills `template` with `values` both ways and checks both texts against `expected`.
    public mutating func check<Slot>(
        _ template: TextTemplate<Slot>, expected: String, _ values: (Slot, inout TemplateOutput) -> Void
    ) {
        fills += 1
        let fresh = template.filled(values)
        template.fill(into: &reused, values)
        for text in [fresh, reused] {
            #expect(text.description == expected)
            var general = JSONWriter(), written = JSONWriter()
            general.string(expected)
            text.encode(to: &written)
            #expect(written.bytes == general.bytes, "\(expected.debugDescription)")
            #expect(text.isEscapeFree == !expected.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
        }
        if fills % 5 == 0 { kept.append((reused, expected)) }
    }

    /// Whether every kept copy still says what it said when it was kept.
    public func checkKeptTexts() {
        for (text, expected) in kept { #expect(text.description == expected) }
    }
}
