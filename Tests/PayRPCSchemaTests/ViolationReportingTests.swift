import PayRPCJSON
import PayRPCSchema
import Testing

/// What `validate` reports: every violation, each with a JSON Pointer into the value, the
/// keyword and a message.
@Suite("Violation reporting")
struct ViolationReportingTests {
    let schema: CompiledSchema

    init() throws {
        schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {
                      "type": "object",
                      "required": ["amount", "currency"],
                      "additionalProperties": false,
                      "properties": {
                        "amount": {"type": "integer", "minimum": 1},
                        "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                        "items": {"type": "array", "items": {"type": "string", "maxLength": 3}},
                        "a/b": {"type": "boolean"},
                        "m~n": {"type": "boolean"},
                        "choice": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 10}]},
                        "one": {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
                      }
                    }
                    """))
    }

    func violations(_ json: String) throws -> [SchemaViolation] {
        let tape = try JSONTape(string: json)
        let found = schema.validate(tape.root)
        #expect(schema.isValid(tape.root) == found.isEmpty)
        return found
    }

    @Test func validValueHasNoViolations() throws {
        #expect(try violations(#"{"amount": 5, "currency": "EUR", "items": ["a"], "choice": 12}"#).isEmpty)
    }

    @Test func reportsEveryViolationWithPointerAndKeyword() throws {
        let found = try violations(#"{"amount": 0.5, "currency": "eur", "items": ["abcd", 7], "extra": 1}"#)
        let summary = found.map { "\($0.pointer) \($0.keyword)" }
        #expect(
            summary == [
                "/amount type", "/amount minimum", "/currency pattern",
                "/items/0 maxLength", "/items/1 type", "/extra additionalProperties",
            ])
        #expect(found[0].message == "expected integer, found number")
        #expect(found[1].message == "must be ≥ 1")
        #expect(found[2].message == "does not match the pattern ^[A-Z]{3}$")
        #expect(found[3].message == "must be at most 3 characters long")
        #expect(found[5].message == #"member "extra" is not allowed"#)
    }

    /// The validator fuzzer's finding: a member name written with escapes was quoted as escaped,
    /// so the same value validated from an owned copy (written anew, unescaped) read differently.
    @Test func anUnknownMemberIsNamedAsDecodedWhateverItsEscapes() throws {
        let escaped = try violations(#"{"amount": 1, "currency": "EUR", "\u0065xtra": 1}"#)
        #expect(escaped.map(\.message) == [#"member "extra" is not allowed"#])
        #expect(escaped == (try violations(#"{"amount": 1, "currency": "EUR", "extra": 1}"#)))
    }

    @Test func missingRequiredMembersAreReportedAtTheObject() throws {
        let found = try violations("{}")
        #expect(
            found == [
                SchemaViolation(pointer: "", keyword: "required", message: #"missing required member "amount""#),
                SchemaViolation(pointer: "", keyword: "required", message: #"missing required member "currency""#),
            ])
        #expect(found[0].description == #"(root): missing required member "amount" [required]"#)
    }

    @Test func pointersEscapeTildeAndSlash() throws {
        let found = try violations(#"{"amount": 1, "currency": "EUR", "a/b": 1, "m~n": "x"}"#)
        #expect(found.map(\.pointer) == ["/a~1b", "/m~0n"])
        #expect(found.allSatisfy { $0.keyword == "type" })
    }

    @Test func anyOfAndOneOfReportOneViolationAtTheirLocation() throws {
        let found = try violations(#"{"amount": 1, "currency": "EUR", "choice": 3, "one": 4}"#)
        #expect(found.map { "\($0.pointer) \($0.keyword)" } == ["/choice anyOf", "/one oneOf"])
        #expect(found[1].message.contains("more than one"))
    }

    @Test func rootTypeMismatch() throws {
        #expect(try violations("[1]") == [SchemaViolation(pointer: "", keyword: "type", message: "expected object, found array")])
    }

    @Test func escapedMemberNamesInPointers() throws {
        let schema = try CompiledSchema(["additionalProperties": ["type": "integer"]])
        let tape = try JSONTape(string: #"{"q\"uote": "x", "tab\t": 1}"#)
        #expect(schema.validate(tape.root).map(\.pointer) == [#"/q"uote"#])
    }

    @Test func allOfThenElseAndDependenciesReportInnerViolations() throws {
        let schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"allOf": [{"required": ["a"]}, {"properties": {"b": {"maxItems": 1}}}],
                     "if": {"required": ["kind"]}, "then": {"required": ["size"]},
                     "dependencies": {"card": ["cvv"], "iban": {"required": ["bic"]}}}
                    """))
        let tape = try JSONTape(string: #"{"b": [1, 2], "kind": 1, "card": 1, "iban": 1}"#)
        let found = schema.validate(tape.root)
        #expect(
            found.map { "\($0.pointer) \($0.keyword)" } == [
                " dependencies", " required", " required", "/b maxItems", " required",
            ])
        #expect(found[0].message == #"member "cvv" is required when "card" is present"#)
        #expect(!schema.isValid(tape.root))
    }

    @Test func falseSubschemasAreReportedUnderTheirKeyword() throws {
        let schema = try CompiledSchema(["items": [true], "additionalItems": false, "propertyNames": ["maxLength": 2]])
        let array = try JSONTape(string: "[1, 2, 3]")
        #expect(
            schema.validate(array.root).map { "\($0.pointer) \($0.keyword)" } == ["/1 additionalItems", "/2 additionalItems"])
        let object = try JSONTape(string: #"{"abc": 1, "ab": 2}"#)
        #expect(schema.validate(object.root).map { "\($0.pointer) \($0.keyword)" } == ["/abc maxLength"])
        let never = try CompiledSchema(false)
        #expect(
            never.validate(array.root) == [SchemaViolation(pointer: "", keyword: "false", message: "no value is allowed here")])
    }

    @Test func validatesOwnedValues() throws {
        #expect(schema.isValid(["amount": 2, "currency": "PLN"]))
        #expect(schema.validate(["amount": 2]).map(\.keyword) == ["required"])
    }

    @Test func compiledSchemasAreSharedAcrossTasks() async throws {
        let schema = self.schema
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let tape = try? JSONTape(string: #"{"amount": \#(index), "currency": "EUR"}"#)
                    return tape.map { schema.isValid($0.root) } ?? false
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 7)  // amount 0 breaks minimum
    }
}
