import PayRPCJSON
import PayRPCSchema
import Testing

/// Schemas that cannot be compiled fail with a ``SchemaCompileError`` naming where.
@Suite("Compile errors")
struct CompileErrorTests {
    func compileError(_ json: String, registry: SchemaRegistry = SchemaRegistry()) throws -> SchemaCompileError? {
        let schema = try JSONValue(parsing: json)
        do throws(SchemaCompileError) {
            _ = try CompiledSchema(schema, registry: registry)
            return nil
        } catch {
            return error
        }
    }

    @Test func unresolvableRefNamesThePointer() throws {
        let error = try #require(try compileError(##"{"properties": {"a": {"$ref": "#/definitions/missing"}}}"##))
        #expect(error.pointer == "/properties/a/$ref")
        #expect(error.message.contains("#/definitions/missing"))
    }

    @Test func refToAnUnknownDocument() throws {
        let error = try #require(try compileError(##"{"items": {"$ref": "https://example.com/other.json"}}"##))
        #expect(error.pointer == "/items/$ref")
    }

    @Test func invalidPatternNamesThePointer() throws {
        let error = try #require(try compileError(##"{"properties": {"b": {"pattern": "([a-z"}}}"##))
        #expect(error.pointer == "/properties/b/pattern")
        #expect(error.message.contains("([a-z"))
        #expect(error.description == #"schema /properties/b/pattern: invalid regular expression "([a-z""#)
    }

    @Test func invalidPatternPropertyNamesThePointer() throws {
        let error = try #require(try compileError(##"{"patternProperties": {"a~/(": {}}}"##))
        #expect(error.pointer == "/patternProperties/a~0~1(")
    }

    @Test func keywordsOfTheWrongShape() throws {
        #expect(try compileError(##"{"minLength": -1}"##)?.pointer == "/minLength")
        #expect(try compileError(##"{"type": "decimal"}"##)?.pointer == "/type")
        #expect(try compileError(##"{"multipleOf": 0}"##)?.pointer == "/multipleOf")
        #expect(try compileError(##"{"required": [1]}"##)?.pointer == "/required")
        #expect(try compileError(##"{"anyOf": []}"##)?.pointer == "/anyOf")
        #expect(try compileError(##"{"items": [1]}"##)?.pointer == "/items/0")
        #expect(try compileError(##"{"$ref": 5}"##)?.pointer == "/$ref")
        #expect(try compileError("12")?.pointer == "")
    }

    @Test func refLoopsThatNeverReachAValueAreRejected() throws {
        #expect(try compileError(##"{"$ref": "#"}"##) != nil)
        #expect(
            try compileError(
                ##"{"definitions": {"a": {"allOf": [{"$ref": "#/definitions/b"}]}, "b": {"not": {"$ref": "#/definitions/a"}}}, "$ref": "#/definitions/a"}"##
            ) != nil)
        // Recursion through items or properties descends into the value each time: fine.
        #expect(try compileError(##"{"items": {"$ref": "#"}, "properties": {"next": {"$ref": "#"}}}"##) == nil)
    }

    @Test func unusedDefinitionsAreNotCompiled() throws {
        #expect(try compileError(##"{"definitions": {"unused": {"$ref": "#/nowhere"}}, "type": "string"}"##) == nil)
    }

    @Test func errorsInRegistryDocumentsNameTheDocument() throws {
        var registry = SchemaRegistry()
        registry.add(["pattern": "(("], uri: "https://example.com/bad.json")
        let error = try #require(try compileError(##"{"$ref": "https://example.com/bad.json"}"##, registry: registry))
        #expect(error.pointer == "https://example.com/bad.json#/pattern")
    }
}
