import PayRPCJSON
import PayRPCSchema
import Testing

/// Messages in words: a named format (`x-format`) says what the value should be, with an
/// example; one member under several spellings (`anyOf` of `required`, `x-spelling`) is reported
/// missing; and no message is longer than 200 characters, whatever the schema or the value holds.
@Suite("Messages in words")
struct MessageWordsTests {
    static let amountWords = #"an amount: a decimal string of at most 18 digits, e.g. "12.50""#

    /// A params schema shaped like the generator's: a named format and an aliased member.
    let schema: CompiledSchema

    init() throws {
        schema = try CompiledSchema(
            JSONValue(
                parsing: #"""
                    {
                      "type": "object",
                      "additionalProperties": false,
                      "required": ["amount"],
                      "anyOf": [{"required": ["contact"]}, {"required": ["recepient"], "x-spelling": "Android"}],
                      "properties": {
                        "amount": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]{1,2})?$", "maxLength": 8,
                                   "x-format": "an amount: a decimal string of at most 18 digits, e.g. \"12.50\""},
                        "code": {"type": "string", "enum": ["AB", "CD"], "pattern": "^[A-Z]{2}$",
                                 "x-format": "a code: two capital letters, e.g. \"AB\""},
                        "contact": {"type": "object"},
                        "recepient": {"type": "object"},
                        "website": {"type": "string", "format": "uri"}
                      }
                    }
                    """#))
    }

    func violations(_ json: String, _ schema: CompiledSchema? = nil) throws -> [SchemaViolation] {
        let schema = schema ?? self.schema
        let tape = try JSONTape(string: json)
        let found = schema.validate(tape.root)
        #expect(schema.isValid(tape.root) == found.isEmpty)
        return found
    }

    @Test func aStringThatBreaksANamedFormatHearsItsNameAndExample() throws {
        let found = try violations(#"{"amount": "x", "contact": {}}"#)
        #expect(found == [SchemaViolation(pointer: "/amount", keyword: "pattern", message: "must be " + Self.amountWords)])
    }

    @Test func aValueOfTheWrongTypeHearsTheFormatAndWhatItIs() throws {
        let found = try violations(#"{"amount": 12.5, "contact": {}}"#)
        #expect(
            found == [SchemaViolation(pointer: "/amount", keyword: "type", message: "must be \(Self.amountWords) (found number)")]
        )
    }

    @Test func severalBrokenKeywordsOfAFormatAreOneViolationUnderTheFirst() throws {
        // Breaks maxLength and pattern: one violation, under the keyword checked first.
        let found = try violations(#"{"amount": "123456789x", "contact": {}}"#)
        #expect(found.count == 1)
        #expect(found[0].pointer == "/amount")
        #expect(["maxLength", "pattern"].contains(found[0].keyword))
        #expect(found[0].message == "must be " + Self.amountWords)
    }

    @Test func keywordsThatAreNotTheFormatsReportAsUsual() throws {
        let found = try violations(#"{"amount": "1", "contact": {}, "code": "ZZ"}"#)
        #expect(found.map { "\($0.pointer) \($0.keyword)" } == ["/code enum"])
        #expect(found[0].message == #"must be one of "AB", "CD""#)
    }

    @Test func aMemberMissingUnderEverySpellingIsOneRequiredViolation() throws {
        let found = try violations(#"{"amount": "1"}"#)
        #expect(
            found == [
                SchemaViolation(
                    pointer: "", keyword: "required",
                    message: #"missing required member "contact" (or Android's "recepient")"#)
            ])
    }

    @Test func spellingsWithoutAnOwnerAreNamedPlainly() throws {
        let schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"properties": {"inner": {"anyOf": [{"required": ["a"]}, {"required": ["b"]}, {"required": ["c"]}]}}}
                    """))
        let found = try violations(#"{"inner": {"z": 1}}"#, schema)
        #expect(
            found == [
                SchemaViolation(
                    pointer: "/inner", keyword: "required",
                    message: #"missing required member "a" (or "b", or "c")"#)
            ])
    }

    @Test func otherAnyOfsStillReportAsBefore() throws {
        let schema = try CompiledSchema(JSONValue(parsing: #"{"anyOf": [{"required": ["a", "b"]}, {"required": ["c", "d"]}]}"#))
        #expect(try violations("{}", schema).map(\.keyword) == ["anyOf"])
    }

    @Test func standardFormatsAreNamedWithAnExample() throws {
        let found = try violations(#"{"amount": "1", "contact": {}, "website": "no scheme"}"#)
        #expect(
            found == [
                SchemaViolation(
                    pointer: "/website", keyword: "format",
                    message: #"must be an absolute URI, e.g. "https://example.com/path""#)
            ])
    }

    @Test func longPatternsMemberNamesAndValuesAreCut() throws {
        let pattern = "^(" + (0..<60).map { "a\($0)" }.joined(separator: "|") + ")$"
        let long = String(repeating: "n", count: 5000)
        let schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"properties": {"p": {"pattern": "\(pattern)"}, "e": {"enum": ["\(long)", 1]}, "c": {"const": "\(long)"}},
                     "required": ["\(long)"], "additionalProperties": false,
                     "dependencies": {"p": ["\(long)"]}}
                    """))
        let found = try violations(#"{"p": "x", "e": 2, "c": 3, "\#(long)x": 1}"#, schema)
        #expect(Set(found.map(\.keyword)) == ["pattern", "enum", "const", "required", "additionalProperties", "dependencies"])
        for violation in found {
            #expect(violation.message.count <= SchemaViolation.maximumMessageLength, "\(violation)")
        }
        let patternMessage = try #require(found.first { $0.keyword == "pattern" }?.message)
        #expect(patternMessage.hasPrefix("does not match the pattern ^(a0|a1|"))
        #expect(patternMessage.hasSuffix("… (\(pattern.count) characters)"))
    }

    /// The JSON-Schema-Test-Suite's draft-07 cases are the conformance inputs: every violation
    /// of every invalid case has a message of at most 200 characters.
    @Test func everyMessageOfTheSuiteFitsTheBound() throws {
        let files = try TestData.draft7Files()
        var checked = 0
        var tooLong: [String] = []
        for file in files where JSONSchemaTestSuiteTests.skippedFiles[file] == nil {
            guard case .array(let groups) = try TestData.json("\(TestData.draft7Folder)/\(file)") else { continue }
            for group in groups {
                guard let schema = try? CompiledSchema(group["schema"] ?? true), case .array(let tests)? = group["tests"] else {
                    continue
                }
                for test in tests {
                    let tape = try TestData.tape(test["data"] ?? .null)
                    for violation in schema.validate(tape.root) {
                        checked += 1
                        if violation.message.count > SchemaViolation.maximumMessageLength {
                            tooLong.append("\(file): \(violation)")
                        }
                    }
                }
            }
        }
        #expect(checked > 300)
        #expect(tooLong.isEmpty, "\(tooLong.joined(separator: "\n"))")
    }
}
