import PayRPCJSON
import PayRPCSchema
import Testing

/// `$ref` resolution: `$id` bases, anchors, escaped pointers, the registry, the meta-schema.
@Suite("References")
struct ReferenceTests {
    func valid(_ schema: CompiledSchema, _ json: String) throws -> Bool {
        let tape = try JSONTape(string: json)
        let quick = schema.isValid(tape.root)
        #expect(quick == schema.validate(tape.root).isEmpty)
        return quick
    }

    @Test func escapedAndPercentEncodedPointers() throws {
        let schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"definitions": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "e%f": {"type": "null"}},
                     "properties": {"x": {"$ref": "#/definitions/a~1b"}, "y": {"$ref": "#/definitions/c~0d"},
                                    "z": {"$ref": "#/definitions/e%25f"}}}
                    """))
        #expect(try valid(schema, ##"{"x": 1, "y": "s", "z": null}"##))
        #expect(try !valid(schema, ##"{"x": "1"}"##))
        #expect(try !valid(schema, ##"{"y": 1}"##))
        #expect(try !valid(schema, ##"{"z": 1}"##))
    }

    @Test func idsAnchorsAndRelativeRefs() throws {
        let schema = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"$id": "https://example.com/root.json",
                     "definitions": {
                       "money": {"$id": "money.json", "type": "object", "properties": {"amount": {"$ref": "#/definitions/amount"}},
                                 "definitions": {"amount": {"type": "integer"}}},
                       "code": {"$id": "#currency", "pattern": "^[A-Z]{3}$"}},
                     "properties": {"price": {"$ref": "money.json"}, "currency": {"$ref": "#currency"},
                                    "again": {"$ref": "https://example.com/money.json#/definitions/amount"}}}
                    """))
        #expect(try valid(schema, ##"{"price": {"amount": 3}, "currency": "EUR", "again": 1}"##))
        #expect(try !valid(schema, ##"{"price": {"amount": 3.5}}"##))
        #expect(try !valid(schema, ##"{"currency": "eur"}"##))
        #expect(try !valid(schema, ##"{"again": "1"}"##))
    }

    @Test func recursiveSchemas() throws {
        let tree = try CompiledSchema(
            JSONValue(
                parsing: """
                    {"type": "object", "properties": {"value": {"type": "integer"},
                     "children": {"type": "array", "items": {"$ref": "#"}}}, "additionalProperties": false}
                    """))
        #expect(try valid(tree, ##"{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}"##))
        let tape = try JSONTape(string: ##"{"children": [{"children": [{"value": "x"}]}]}"##)
        #expect(tree.validate(tape.root).map(\.pointer) == ["/children/0/children/0/value"])
    }

    @Test func registryDocumentsByURIAndByTheirID() throws {
        var registry = SchemaRegistry()
        registry.add(
            ["$id": "https://schemas.example/amount", "type": "integer", "minimum": 0], uri: "https://mirror.example/a.json")
        let byURI = try CompiledSchema(["$ref": "https://mirror.example/a.json"], registry: registry)
        let byID = try CompiledSchema(["$ref": "https://schemas.example/amount"], registry: registry)
        for schema in [byURI, byID] {
            #expect(try valid(schema, "5"))
            #expect(try !valid(schema, "-5"))
        }
    }

    @Test func draft07MetaSchemaIsKnown() throws {
        let meta = try #require(CompiledSchema.draft07MetaSchema)
        #expect(meta.isValid(##"{"type": "object", "properties": {"a": {"minLength": 1}}}"##.jsonValue))
        #expect(meta.isValid(true))
        let violations = meta.validate(##"{"properties": {"a": {"minLength": -1}}, "type": "decimal"}"##.jsonValue)
        #expect(violations.map(\.pointer).contains("/properties/a/minLength"))
        #expect(violations.map(\.pointer).contains("/type"))
        #expect(SchemaRegistry.draft07MetaSchema["$id"] == "http://json-schema.org/draft-07/schema#")
        let viaRef = try CompiledSchema(["$ref": "http://json-schema.org/draft-07/schema#"])
        #expect(!viaRef.isValid(["maxItems": "3"]))
    }
}

extension String {
    /// Parses a test literal; `null` when it is not JSON (the test then fails on content).
    var jsonValue: JSONValue { (try? JSONValue(parsing: self)) ?? .null }
}
