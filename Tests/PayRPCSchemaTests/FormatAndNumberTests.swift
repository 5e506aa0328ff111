import PayRPCJSON
import PayRPCSchema
import PayRPCTestSupport
import Testing

/// Formats and exact numbers: what the official suite's required part does not cover.
@Suite("Formats and numbers")
struct FormatAndNumberTests {
    static let formatCases: [(format: String, value: String, valid: Bool)] = [
        ("date-time", "2024-02-29T12:30:00Z", true),
        ("date-time", "2024-02-29t12:30:00.123+02:00", true),
        ("date-time", "1998-12-31T23:59:60Z", true),
        ("date-time", "1998-12-31T15:59:60-08:00", true),
        ("date-time", "1998-12-31T22:59:60Z", false),
        ("date-time", "2023-02-29T12:30:00Z", false),
        ("date-time", "2024-01-01 12:30:00Z", false),
        ("date-time", "2024-01-01T12:30:00", false),
        ("date", "2020-02-29", true),
        ("date", "1900-02-29", false),
        ("date", "2021-04-31", false),
        ("date", "2021-4-03", false),
        ("date", "٢٠٢١-04-03", false),
        ("time", "08:30:06Z", true),
        ("time", "08:30:06.25+01:00", true),
        ("time", "08:30:06", false),
        ("time", "24:00:00Z", false),
        ("email", "joe.bloggs@example.com", true),
        ("email", "\"joe bloggs\"@example.com", true),
        ("email", "joe@[127.0.0.1]", true),
        ("email", "joe@[IPv6:::1]", true),
        ("email", ".joe@example.com", false),
        ("email", "jo..e@example.com", false),
        ("email", "joe.example.com", false),
        ("hostname", "www.example.com", true),
        ("hostname", "xn--4gbwdl.xn--wgbh1c", true),
        ("hostname", "-a.example.com", false),
        ("hostname", "a_b.example.com", false),
        ("hostname", String(repeating: "a", count: 64) + ".com", false),
        ("ipv4", "192.168.0.1", true),
        ("ipv4", "256.1.1.1", false),
        ("ipv4", "087.10.0.1", false),
        ("ipv4", "1.2.3", false),
        ("ipv6", "::1", true),
        ("ipv6", "::", true),
        ("ipv6", "1:2:3:4:5:6:7:8", true),
        ("ipv6", "fe80::1:2", true),
        ("ipv6", "::ffff:192.168.0.1", true),
        ("ipv6", "1:2:3:4:5:6:7:8:9", false),
        ("ipv6", "1::2::3", false),
        ("ipv6", "12345::", false),
        ("ipv6", ":1:2", false),
        ("ipv6", "1:", false),
        ("uri", "https://example.com/a/b?c=d#e", true),
        ("uri", "urn:isbn:0451450523", true),
        ("uri", "http://[::1]:8080/", true),
        ("uri", "/relative/path", false),
        ("uri", "http://exa mple.com", false),
        ("uri", "http://example.com/%zz", false),
        ("uri", "1http://example.com", false),
        ("uri-reference", "/relative/path?x#frag", true),
        ("uri-reference", "#frag", true),
        ("uri-reference", "a\\b", false),
        ("uri-reference", "#a#b", false),
        ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true),
        ("uuid", "2eb8aa08aa9811eab4aa73b441d16380", false),
        ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g", false),
        ("regex", "^[a-z]+$", true),
        ("regex", "([a-z", false),
        ("json-pointer", "", true),
        ("json-pointer", "/a~1b/~0/0", true),
        ("json-pointer", "a/b", false),
        ("json-pointer", "/a~2", false),
        ("unknown-format", "anything", true),
    ]

    @Test func formats() throws {
        for (format, text, valid) in Self.formatCases {
            let schema = try CompiledSchema(["format": .string(format)])
            let result = schema.validate(.string(text))
            #expect(result.isEmpty == valid, "\(format) \(text): \(result)")
            if !valid { #expect(result.first?.keyword == "format") }
            #expect(schema.isValid(12))  // formats apply to strings only
        }
    }

    static let multipleOfCases: [(divisor: String, value: String, valid: Bool)] = [
        ("0.01", "19.99", true),
        ("0.01", "0.07", true),
        ("0.01", "1e-2", true),
        ("0.01", "0.075", false),
        ("0.1", "0.3", true),
        ("0.0001", "0.0075", true),
        ("0.123456789", "1e308", false),
        ("2", "1e308", true),
        ("3", "1e308", false),
        ("1.5", "4.5", true),
        ("1.5", "35", false),
        ("7", "-49", true),
        ("1e-8", "12345.67890123", true),
        ("0.5", "-0", true),
    ]

    @Test func multipleOfIsExactForDecimals() throws {
        for (divisor, value, valid) in Self.multipleOfCases {
            let schema = try CompiledSchema(["multipleOf": .number(divisor)])
            let tape = try JSONTape(string: value)
            #expect(schema.isValid(tape.root) == valid, "\(value) multipleOf \(divisor)")
            #expect(schema.validate(tape.root).map(\.keyword) == (valid ? [] : ["multipleOf"]))
        }
    }

    @Test func boundsCompareExactly() throws {
        let schema = try CompiledSchema(["maximum": .number("9007199254740993"), "exclusiveMinimum": .number("0.1")])
        for (value, valid) in [
            ("9007199254740993", true), ("9007199254740994", false), ("9007199254740993.5", false),
            ("0.1", false), ("0.10000000000000001", true), ("1e400", false), ("1E-400", false),
        ] {
            let tape = try JSONTape(string: value)
            #expect(schema.isValid(tape.root) == valid, "\(value)")
        }
        let message = (try JSONTape(string: "0.1").withRoot { schema.validate($0) }).first?.message
        #expect(message == "must be > 0.1")
    }

    @Test func integersHaveAZeroFraction() throws {
        let schema = try CompiledSchema(["type": "integer"])
        for (value, valid) in [
            ("1", true), ("1.0", true), ("-3.000", true), ("1e2", true), ("1.5e1", true),
            ("1.25e1", false), ("0.5", false), ("1e-1", false), ("12345678901234567890123", true),
        ] {
            #expect((try JSONTape(string: value).withRoot { schema.isValid($0) }) == valid, "\(value)")
        }
    }

    @Test func lengthsCountCodePoints() throws {
        let schema = try CompiledSchema(["minLength": 2, "maxLength": 2])
        for (value, valid) in [
            (#""ab""#, true), (#""💩💩""#, true), (#""\ud83d\udca9\ud83d\udca9""#, true),
            (#""é""#, false), (#""e\u0301""#, true), (#""abc""#, false),
        ] {
            #expect((try JSONTape(string: value).withRoot { schema.isValid($0) }) == valid, "\(value)")
        }
    }
}

/// Sizes that must neither crash nor take quadratic time.
@Suite("Large and deep values")
struct LargeValueTests {
    @Test func uniqueItemsOnLongArrays() throws {
        let schema = try CompiledSchema(["uniqueItems": true])
        let distinct = "[" + (0..<20_000).map { #"{"a": \#($0), "b": [\#($0), "x"]}"# }.joined(separator: ",") + "]"
        #expect((try JSONTape(string: distinct).withRoot { schema.isValid($0) }))
        let repeated =
            "[" + (0..<20_000).map { "\($0)" }.joined(separator: ",") + #", {"b": 2, "a": 1}, 7.0, {"a": 1.0, "b": 2}]"#
        let found = (try JSONTape(string: repeated).withRoot { schema.validate($0) })
        #expect(found == [SchemaViolation(pointer: "", keyword: "uniqueItems", message: "items #7 and #20001 are equal")])
        let objects = "[" + (0..<20).map { "\($0)" }.joined(separator: ",") + #", {"b": 2, "a": 1}, {"a": 1.0, "b": 2}]"#
        #expect(!(try JSONTape(string: objects).withRoot { schema.isValid($0) }))
    }

    /// About 2,000 nested calls: on a 64-MiB stack of its own, which AddressSanitizer's padded
    /// debug frames need (the thread Swift Testing gives a test overflowed under it; the gateway
    /// walks on its 8-MiB main thread in release, where the frames are a fraction of these).
    @Test func deeplyNestedValuesAgainstRecursiveSchemas() throws {
        let (valid, keywords) = try LargeStack.run(bytes: 64 << 20) {
            let schema = try CompiledSchema(["anyOf": [["type": "integer"], ["type": "array", "items": ["$ref": "#"]]]])
            let depth = 500
            let deep = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            let valid = try JSONTape(string: deep).withRoot { schema.isValid($0) }
            let bad = String(repeating: "[", count: depth) + "\"x\"" + String(repeating: "]", count: depth)
            return (valid, try JSONTape(string: bad).withRoot { schema.validate($0) }.map(\.keyword))
        }
        #expect(valid)
        #expect(keywords == ["anyOf"])
    }
}

/// `pattern` follows ECMA-262 where ICU differs.
@Suite("ECMA-262 patterns")
struct PatternTests {
    @Test func asciiClassesAndEndAnchor() throws {
        let cases: [(pattern: String, text: String, valid: Bool)] = [
            (#"^\d+$"#, "123", true),
            (#"^\d+$"#, "١٢٣", false),
            (#"^\d+$"#, "123\n", false),
            (#"^[\d]+$"#, "4٣", false),
            (#"^\w+$"#, "abc_1", true),
            (#"^\w+$"#, "é", false),
            (#"^\D$"#, "a", true),
            (#"^\W$"#, "-", true),
            (#"^a\$b$"#, "a$b", true),
            (#"^[$]$"#, "$", true),
            (#"\\d"#, #"\d"#, true),
            ("^[^a-z]$", "1", true),
            ("x-", "has x-y", true),
            ("^[[]$", "[", true),
        ]
        for (pattern, text, valid) in cases {
            let schema = try CompiledSchema(["pattern": .string(pattern)])
            #expect(schema.isValid(.string(text)) == valid, "\(pattern) on \(text)")
        }
    }
}
