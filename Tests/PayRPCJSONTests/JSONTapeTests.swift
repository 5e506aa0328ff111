import Foundation
import PayRPCJSON
import Testing

/// The hot-path reader: grammar, UTF-8, escapes, numbers, raw bytes, limits.
@Suite struct JSONTapeTests {
    @Test(arguments: [
        #"{}"#, #"[]"#, #"null"#, #"true"#, #"false"#, #"0"#, #"-0.5e+10"#, #"1E-3"#, #""""#,
        #"{"a":[1,2,{"b":null}],"c":"\u00e9\n"}"#, " \t\r\n[ 1 , 2 ] ", #""😀""#, #""\ud83d\ude00""#,
    ])
    func acceptsValidJSON(text: String) throws {
        let tape = try JSONTape(string: text)
        // What Foundation parses, the tape parses to the same value (compared as re-parsed text).
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let reencoded = try JSONSerialization.jsonObject(
            with: Data(JSONValue(tape.root).jsonText.utf8), options: [.fragmentsAllowed])
        let normalize = { (value: Any) throws -> Data in
            try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        #expect(try normalize(foundation) == normalize(reencoded))
    }

    @Test(arguments: [
        ("", JSONParseError.Reason.empty), ("{", .unexpectedEnd), (#"{"a"}"#, .unexpectedCharacter),
        ("[1,]", .unexpectedCharacter), ("01", .trailingData), ("1.", .invalidNumber), ("-", .invalidNumber),
        ("+1", .unexpectedCharacter), (#""\x""#, .invalidEscape), (#""\u12G4""#, .invalidEscape),
        ("\"a\u{1}b\"", .controlCharacterInString), ("[1] [2]", .trailingData), ("tru", .unexpectedEnd),
        ("nul!", .unexpectedCharacter), (#"{"a":1,}"#, .unexpectedCharacter),
    ])
    func rejectsInvalidJSON(text: String, reason: JSONParseError.Reason) {
        #expect(throws: JSONParseError.self) { try JSONTape(string: text) }
        do { _ = try JSONTape(string: text) } catch { #expect(error.reason == reason, "\(text): \(error)") }
    }

    @Test(
        arguments: [
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-16 surrogate encoded in UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0x80, 0x22],  // lone continuation byte
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        do {
            _ = try JSONTape(copying: bytes)
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error.reason == .invalidUTF8)
        }
    }

    @Test func nestingIsBounded() {
        let deep =
            String(repeating: "[", count: JSONTape.maximumDepth + 1) + String(repeating: "]", count: JSONTape.maximumDepth + 1)
        #expect(throws: JSONParseError.self) { try JSONTape(string: deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONTape(string: fine)) != nil)
    }

    @Test func rawBytesOfLargeNumbersAreKeptExactly() throws {
        let tape = try JSONTape(string: #"{"id":123456789012345678901234567890,"x":1.0}"#)
        #expect(tape.root.member("id")?.rawText == "123456789012345678901234567890")
        #expect(tape.root.member("id")?.int64 == nil)
        #expect(tape.root.member("x")?.int64 == 1)
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let tape = try JSONTape(string: #"["\"\\\/\b\f\n\r\t", "\u00e9\ud834\udd1e", "\ud800"]"#)
        let strings = tape.root.arrayElements.map { $0.string }
        #expect(strings[0] == "\"\\/\u{8}\u{C}\n\r\t")
        #expect(strings[1] == "é𝄞")
        #expect(strings[2] == "\u{FFFD}")  // a lone surrogate cannot be a Swift string
    }

    @Test func membersAndStringComparison() throws {
        let tape = try JSONTape(string: #"{"method":"rpc.health","m\u0065thod2":"x","a":1,"a":2}"#)
        #expect(tape.root.member("method")?.stringEquals("rpc.health") == true)
        #expect(tape.root.member("method2")?.string == "x")  // escaped key, found by its value
        #expect(tape.root.member("a")?.int64 == 1)  // the first of duplicates
        #expect(tape.root.count == 4)
    }

    @Test func structuralEquality() throws {
        let left = try JSONTape(string: #"{"a":[1,2.0,"x"],"b":{"c":null}}"#)
        let right = try JSONTape(string: #"{"b":{"c":null},"a":[1.0,2,"x"]}"#)
        let other = try JSONTape(string: #"{"b":{"c":false},"a":[1,2,"x"]}"#)
        #expect(left.root.jsonEquals(right.root))
        #expect(!left.root.jsonEquals(other.root))
    }

    /// Found by the json_reader fuzz target: an object that repeats a name was unequal to itself.
    @Test(arguments: [
        (#"{"a":{"b":[true,false,null,{"c":""}]},"a":2}"#, #"{"a":2,"a":{"b":[true,false,null,{"c":""}]}}"#, true),
        (#"{"a":1,"a":2}"#, #"{"a":1,"a":2}"#, true),
        (#"{"a":1,"a":2}"#, #"{"a":1,"a":1}"#, false),
        (#"{"a":1,"a":1,"a":2}"#, #"{"a":1,"a":2,"a":2}"#, false),
        (#"{"a":1,"a":2}"#, #"{"a":1,"b":2}"#, false),
    ])
    func repeatedNamesCompareMemberByMember(left: String, right: String, equal: Bool) throws {
        let first = try JSONTape(string: left), second = try JSONTape(string: right)
        #expect(first.root.jsonEquals(first.root))
        #expect(first.root.jsonEquals(second.root) == equal, "\(left) vs \(right)")
        #expect(second.root.jsonEquals(first.root) == equal, "\(right) vs \(left)")
    }

    @Test func aTapeIsReusedAcrossLines() throws {
        let tape = JSONTape()
        for text in [#"{"a":1}"#, "[1,2,3]", #""s""#] {
            var bytes = Array(text.utf8)
            try bytes.withUnsafeMutableBytes { try tape.parse(UnsafeRawBufferPointer($0)) }
            bytes.withUnsafeBytes { _ in #expect(tape.root.kind != .null) }
        }
    }
}

/// The writer: escaping, numbers, round trips.
@Suite struct JSONWriterTests {
    @Test(arguments: ["plain", "quote \" backslash \\ slash /", "ctl \u{0}\u{1F}\n\t", "é 😀 \u{2028}", ""])
    func stringsRoundTrip(text: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        let tape = try JSONTape(copying: writer.bytes)
        #expect(tape.root.string == text)
    }

    /// The writer copies text that needs no escaping eight bytes at a time: each character that
    /// must be escaped is tried at every offset of the first three words, in plain and in
    /// non-ASCII surroundings, and the written text is compared with JSONSerialization's reading.
    @Test func escapesAreFoundAtEveryOffsetOfAWord() throws {
        for offset in 0..<24 {
            for filler in ["a", "é"] {
                for special in ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "/", "😀"] {
                    let text = String(repeating: filler, count: offset) + special + String(repeating: "z", count: offset % 9)
                    var writer = JSONWriter()
                    writer.string(text)
                    let written = String(decoding: writer.bytes, as: UTF8.self)
                    let read = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: [.fragmentsAllowed]) as? String
                    #expect(read == text, "\(written)")
                    let escaped = written.dropFirst().dropLast()
                    #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 }, "control characters are escaped: \(written)")
                }
            }
        }
    }

    @Test func integersAndDoubles() {
        var writer = JSONWriter()
        writer.beginArray()
        for value in [0, -1, Int.max, Int.min] {
            writer.element()
            writer.int(value)
        }
        writer.element()
        writer.double(1.5)
        writer.element()
        writer.double(.nan)
        writer.element()
        writer.double(3)
        writer.endArray()
        #expect(writer.text == "[0,-1,\(Int.max),\(Int.min),1.5,null,3]")
    }

    @Test func membersOmitNilOptionals() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", 1)
        writer.member("b", Optional<String>.none)
        writer.member("c", Optional("x"))
        writer.endObject()
        #expect(writer.text == #"{"a":1,"c":"x"}"#)
    }

    @Test func canonicalTextSortsKeysAndEndsWithANewline() throws {
        let value = try JSONValue(parsing: #"{"b":[1,{"z":1,"a":2}],"a":"x","é":{}}"#)
        #expect(
            value.canonicalText == """
                {
                  "a": "x",
                  "b": [
                    1,
                    {
                      "a": 2,
                      "z": 1
                    }
                  ],
                  "é": {}
                }

                """)
    }
}

/// RFC 3339 dates: the strict grammar, both ways.
@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2026-01-31T12:00:00Z", 1_769_860_800.0), ("2026-01-31T13:00:00+01:00", 1_769_860_800.0),
        ("2024-02-29T00:00:00.250Z", 1_709_164_800.25), ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-01-31 12:00:00Z", "2026-01-31T12:00:00", "2026-13-01T00:00:00Z",
        "2026-01-31T24:00:00Z", "2026-1-31T12:00:00Z", "2026-01-31T12:00:00.Z", "2023-02-29T00:00:00Z",
    ])
    func rejects(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formatsInUTC() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_769_860_800)) == "2026-01-31T12:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_709_164_800.25)) == "2024-02-29T00:00:00.250Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    /// The byte-writing formatter against Foundation's ISO 8601 formatter, over years 1600 to 9999
    /// (before the Gregorian reform Foundation switches to the Julian calendar; RFC 3339's is the
    /// proleptic Gregorian one), whole seconds and milliseconds; and every formatted date reads
    /// back as itself.
    @Test func formatsAsFoundationDoes() {
        let foundation = ISO8601DateFormatter()
        foundation.timeZone = TimeZone(identifier: "UTC")
        foundation.formatOptions = [.withInternetDateTime]
        var generator = SystemRandomNumberGenerator()
        let range = Int64(-11_676_096_000)...Int64(253_402_300_799)  // 1600-01-01 ... 9999-12-31T23:59:59
        for _ in 0..<2_000 {
            let second = Int64.random(in: range, using: &generator)
            let whole = Date(timeIntervalSince1970: Double(second))
            #expect(RFC3339.format(whole) == foundation.string(from: whole))
            let millis = Int.random(in: 1...999, using: &generator)
            let fractional = Date(timeIntervalSince1970: Double(second) + Double(millis) / 1000)
            var expected = foundation.string(from: whole)
            expected.removeLast()
            expected += "." + String(1000 + millis).dropFirst() + "Z"
            #expect(RFC3339.format(fractional) == expected)
            #expect(RFC3339.parse(RFC3339.format(whole)) == whole)
        }
    }

    /// Strings are scanned eight bytes at a time until a byte needs a closer look: every special
    /// byte is tried at every offset of the first three words, with plain bytes around it.
    @Test func specialBytesAreFoundAtEveryOffsetOfAWord() throws {
        for offset in 0..<24 {
            for tail in [0, 1, 7, 8, 13] {
                let before = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
                let after = [UInt8](repeating: UInt8(ascii: "z"), count: tail)
                func parse(_ middle: [UInt8]) -> Result<String, JSONParseError> {
                    let line = [0x22] + before + middle + after + [0x22]
                    do { return .success(try JSONTape(copying: line).withRoot { $0.string } ?? "not a string") } catch {
                        return .failure(error)
                    }
                }
                let prefix = String(decoding: before, as: UTF8.self), suffix = String(decoding: after, as: UTF8.self)
                #expect(try parse([]).get() == prefix + suffix)
                #expect(try parse([0x5C, 0x22]).get() == prefix + "\"" + suffix, "escaped quote at \(offset)")
                #expect(try parse([0x5C, 0x5C]).get() == prefix + "\\" + suffix)
                #expect(try parse([0x5C, 0x75, 0x30, 0x30, 0x65, 0x39]).get() == prefix + "é" + suffix)
                #expect(try parse([0xC3, 0xA9]).get() == prefix + "é" + suffix, "two-byte UTF-8 at \(offset)")
                #expect(try parse([0xF0, 0x9F, 0x98, 0x80]).get() == prefix + "😀" + suffix)
                #expect(try parse([0x7F, 0x20, 0x7E]).get() == prefix + "\u{7F} ~" + suffix, "DEL, space and ~ are plain")
                for control: UInt8 in [0x00, 0x01, 0x0A, 0x1F] {
                    guard case .failure(let error) = parse([control]) else {
                        Issue.record("control byte \(control) at \(offset) accepted")
                        continue
                    }
                    #expect(error.reason == .controlCharacterInString)
                    #expect(error.offset == offset + 1, "the error points at the control byte")
                }
                for invalid: [UInt8] in [[0xFF], [0x80], [0xC3]] {
                    guard case .failure(let error) = parse(invalid) else {
                        Issue.record("invalid UTF-8 \(invalid) at \(offset) accepted")
                        continue
                    }
                    #expect(error.reason == .invalidUTF8)
                }
                // A quote in the middle ends the string: what follows is trailing data.
                guard case .failure(let error) = parse([0x22]) else {
                    Issue.record("a bare quote at \(offset) did not end the string")
                    continue
                }
                #expect(error.reason == .trailingData)
                #expect(error.offset == offset + 2)
            }
        }
        // Unterminated: the scan must stop at the end of the buffer, whatever its length.
        for length in 0..<20 {
            let line = [0x22] + [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(throws: JSONParseError.self) { try JSONTape(copying: line) }
        }
    }
}
