import PayRPCJSON
import PayRPCSchema
import Testing

/// Values whose objects repeat a member name (JSON allows them; RFC 8259 leaves their meaning
/// open): `uniqueItems`, `const` and `enum` compare them member by member, the same in the
/// pairwise and the hashed path. Found by the json_reader fuzz target (`jsonEquals` was not
/// reflexive for them).
@Suite("Repeated member names")
struct RepeatedMemberTests {
    func isValid(_ schema: String, _ value: String) throws -> Bool {
        let compiled = try CompiledSchema(JSONValue(parsing: schema))
        return try JSONTape(string: value).withRoot { compiled.isValid($0) }
    }

    @Test func uniqueItemsSeesRepeatedEqualObjects() throws {
        let object = #"{"a":1,"a":2}"#
        #expect(try !isValid(#"{"uniqueItems":true}"#, "[\(object),\(object)]"))
        // More than 16 items take the hashed path.
        let many = (0..<20).map { #"{"n":\#($0)}"# } + [object, #"{"a":2,"a":1}"#]
        #expect(try !isValid(#"{"uniqueItems":true}"#, "[\(many.joined(separator: ","))]"))
        #expect(try isValid(#"{"uniqueItems":true}"#, #"[{"a":1,"a":2},{"a":1,"a":1}]"#))
    }

    @Test func constAndEnumMatchAnObjectWithRepeatedNames() throws {
        #expect(try isValid(#"{"const":{"a":1,"a":2}}"#, #"{"a":2,"a":1}"#))
        #expect(try isValid(#"{"enum":[0,{"a":1,"a":2}]}"#, #"{"a":1,"a":2}"#))
        #expect(try !isValid(#"{"const":{"a":1,"a":2}}"#, #"{"a":1,"a":1}"#))
    }
}
