import PayRPCJSON
import Testing

/// Strings read off the tape (``JSONElement/string``, small ones made from their words) and member
/// names as the generated decoders match them (``MemberName``), against the standard library.
@Suite struct DecodedStringTests {
    /// Texts of every length around the small-string limit of 15 bytes, ASCII or not (`á` is two
    /// bytes, `😀` four), and a text outside ASCII only at its last byte.
    static let samples: [String] =
        (0...20).map { String(repeating: "x", count: $0) }
        + (0...9).map { String(repeating: "á", count: $0) }
        + ["Jana Nováková", "+421900123456", "0123456789abcde", "0123456789abcdé", "😀😀😀", "abcdefghijklmn😀", "\u{7F}"]

    @Test("a string read off the tape is the standard library's string of the same bytes", arguments: samples)
    func stringsAreTheStandardOnes(sample: String) throws {
        var writer = JSONWriter()
        sample.encode(to: &writer)
        let tape = try JSONTape(copying: writer.bytes)
        let read = try #require(tape.root.string)
        let expected = String(decoding: Array(sample.utf8), as: UTF8.self)
        #expect(read == expected)
        #expect(read.hashValue == expected.hashValue)
        #expect(Array(read.utf8) == Array(sample.utf8))
        #expect(read.utf16.count == sample.utf16.count)
        #expect(read.count == sample.count)
        #expect(Array(read.unicodeScalars) == Array(sample.unicodeScalars))
        #expect((read + "!") == (sample + "!"))
        #expect(read < sample + "\u{0}" && !(read < sample))
    }

    @Test("a member name's words are the constants the generator writes for the same key", arguments: samples)
    func memberNameWords(sample: String) throws {
        let key = Array(sample.utf8)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(sample)
        writer.raw("1" as StaticString)
        writer.endObject()
        let tape = try JSONTape(copying: writer.bytes)
        let (name, _) = try #require(tape.root.objectMembers.first { _ in true })
        let memberName = name.memberName(among: [])
        #expect(memberName.count == key.count)
        for offset in stride(from: 0, to: key.count, by: 8) {
            #expect(memberName.word(offset) == MemberName.word(of: key, at: offset))
        }
    }

    @Test("a member name written with escapes matches the key it spells, and no other")
    func escapedNamesMatchByTheirText() throws {
        let tape = try JSONTape(string: #"{"am\u006funt":1,"n\u00e1zov":2,"other\n":3}"#)
        let names = tape.root.objectMembers.map(\.name)
        let keys: [StaticString] = ["count", "amount", "názov"]
        let amount = names[0].memberName(among: keys)
        #expect(amount.count == 6 && amount.word(0) == MemberName.word(of: Array("amount".utf8), at: 0))
        let name = names[1].memberName(among: keys)
        #expect(name.count == 6 && name.word(0) == MemberName.word(of: Array("názov".utf8), at: 0))
        #expect(names[2].memberName(among: keys).count == -1)
    }
}
