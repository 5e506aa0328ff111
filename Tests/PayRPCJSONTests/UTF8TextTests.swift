import PayRPCJSON
import Testing

@Suite struct UTF8TextTests {
    /// Texts that need every kind of care on the way out: quotes, backslashes, control characters,
    /// non-ASCII letters, a character outside the BMP and an empty text.
    static let samples = [
        "Pay 12.50 EUR to Jana Nováková (+421900123456)?", "say \"hi\"\\ now", "line\nbreak\ttab\u{1}",
        "emoji 😀 and ž", "",
    ]

    @Test("a text is written as the JSON string a String of the same characters is written as", arguments: samples)
    func writesLikeAString(sample: String) throws {
        var expected = JSONWriter(), written = JSONWriter()
        sample.encode(to: &expected)
        UTF8Text(sample).encode(to: &written)
        #expect(written.bytes == expected.bytes)
        // And it reads back, escapes decoded, as the same text.
        let tape = try JSONTape(copying: written.bytes)
        let decoded = try UTF8Text(json: tape.root)
        #expect(decoded == UTF8Text(sample))
        #expect(decoded.description == sample)
    }

    @Test("a text put together from pieces holds exactly their bytes, in order")
    func piecesMakeTheText() {
        let pieces = ["Pay ", "12.50", " EUR to ", "Jana Nováková", " 😀"]
        let count = pieces.reduce(0) { $0 + $1.utf8.count }
        let literal = UTF8Text(" (end)")
        let text = UTF8Text(count: count + literal.count) { writer in
            for piece in pieces { writer.append(piece) }
            writer.append(literal)
        }
        #expect(text.description == pieces.joined() + " (end)")
        #expect(text.bytes == Array((pieces.joined() + " (end)").utf8))
    }

    @Test("pieces of every length up to 40 bytes, strings and raw bytes, are copied whole and in order")
    func piecesOfEveryLength() {
        // Small strings (up to 15 bytes) and native ones reach the writer differently, and a
        // piece may be empty: each length is checked, next to the others.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for length in 0...40 {
            let piece = String(decoding: alphabet[length % 7..<length % 7 + length], as: UTF8.self)
            let bytes = Array("<\(length)>".utf8)
            let text = UTF8Text(count: 2 * piece.utf8.count + bytes.count + 2) { writer in
                writer.append("[")
                writer.append(piece)
                bytes.withUnsafeBytes { writer.append(utf8: $0) }
                writer.append(UTF8Text(piece))
                writer.append("]")
            }
            #expect(text.description == "[" + piece + "<\(length)>" + piece + "]", "length \(length)")
        }
    }

    @Test("trailing spaces are dropped, and nothing else")
    func trimsTrailingSpaces() {
        var text = UTF8Text("I sent you 5.00 EUR.  ")
        text.trimTrailingSpaces()
        #expect(text.description == "I sent you 5.00 EUR.")
        var spaces = UTF8Text("   ")
        spaces.trimTrailingSpaces()
        #expect(spaces.isEmpty)
        var inner = UTF8Text(" a b")
        inner.trimTrailingSpaces()
        #expect(inner.description == " a b")
    }

    @Test("copies share their bytes but not their length: trimming one leaves the other whole")
    func copiesAreValues() {
        let original = UTF8Text("paid  ")
        var trimmed = original
        trimmed.trimTrailingSpaces()
        #expect(original.description == "paid  " && original.count == 6)
        #expect(trimmed.description == "paid" && trimmed.count == 4)
        #expect(trimmed != original)
        #expect(trimmed == UTF8Text("paid"))
        #expect(Set([trimmed, UTF8Text("paid"), original]).count == 2)
    }

    @Test("whether a text needs escaping is known exactly: from its strings as they are copied, from whole texts")
    func knowsWhetherItNeedsEscaping() {
        for sample in Self.samples {
            let needs = sample.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            #expect(UTF8Text(sample).isEscapeFree == !needs, "\(sample.debugDescription)")
            let joined = UTF8Text(count: 2 * sample.utf8.count + 3) { writer in
                writer.append("a b")
                writer.append(UTF8Text(sample))
                Array(sample.utf8).withUnsafeBytes { writer.append(utf8: $0) }
            }
            #expect(joined.isEscapeFree == !needs)
        }
        let digits = UTF8Text(count: 5) { writer in
            "12.50".utf8.withContiguousStorageIfAvailable { writer.append(escapeFreeUTF8: UnsafeRawBufferPointer($0)) }
        }
        #expect(digits.isEscapeFree && digits.description == "12.50")
        #expect(UTF8Text().isEmpty && UTF8Text().isEscapeFree)
    }

    @Test("against the general path: texts of random pieces, made new or rewritten in place, write the bytes their String writes")
    func randomPiecesAgainstStrings() throws {
        let alphabet: [String] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1f}", "\u{7f}", "ž", "€", "😀", "👩‍👩‍👧", ".",
        ]
        var random = SplitMix64(seed: 31)
        var reused = UTF8Text()
        var kept: [(UTF8Text, String)] = []
        for round in 0..<2_000 {
            let pieces = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                String((0..<Int.random(in: 0...30, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined())
            }
            let whole = pieces.joined()
            let count = whole.utf8.count
            let build = { (writer: inout UTF8Text.Writer) in
                for (index, piece) in pieces.enumerated() {
                    switch index % 3 {
                    case 0: writer.append(piece)
                    case 1: writer.append(UTF8Text(piece))
                    default: Array(piece.utf8).withUnsafeBytes { writer.append(utf8: $0) }
                    }
                }
            }
            let made = UTF8Text(count: count, build)
            reused.rewrite(count: count, build)
            var general = JSONWriter()
            general.string(whole)
            for text in [made, reused] {
                #expect(text.description == whole)
                var written = JSONWriter()
                text.encode(to: &written)
                #expect(written.bytes == general.bytes, "round \(round): \(whole.debugDescription)")
            }
            if round % 7 == 0 { kept.append((reused, whole)) }
        }
        // A rewrite never wrote into a text someone still held.
        for (text, whole) in kept { #expect(text.description == whole) }
    }

    @Test("rewriting a text leaves its copies as they were, and reuses storage nobody else holds")
    func rewriteIsAValueChange() {
        var text = UTF8Text("first confirmation")
        let copy = text
        text.rewrite(count: 6) { $0.append("second") }
        #expect(copy.description == "first confirmation")
        #expect(text.description == "second")
        text.rewrite(count: 5) { $0.append("third") }
        #expect(text.description == "third")
        text.rewrite(count: 200) { $0.append(String(repeating: "\"", count: 200)) }
        #expect(text.count == 200 && !text.isEscapeFree)
        text.rewrite(count: 4) { $0.append("Jana") }
        #expect(text.description == "Jana" && text.isEscapeFree)
        #expect(copy.description == "first confirmation")
    }

    @Test("a value that is not a string is refused")
    func refusesOtherKinds() throws {
        for json in ["12", "null", "[\"a\"]", "{\"a\":1}"] {
            let tape = try JSONTape(string: json)
            #expect(throws: JSONDecodingError.self) { try UTF8Text(json: tape.root) }
        }
    }
}
