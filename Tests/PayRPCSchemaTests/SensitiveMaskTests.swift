import PayRPCJSON
import PayRPCSchema
import Testing

/// ``SensitiveMask``: the secrets a schema declares are found through references, combinators,
/// items and `additionalProperties`, and a value is masked along them; what the schema does not
/// declare gets the name rule.
@Suite("Sensitive masks")
struct SensitiveMaskTests {
    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    static func definitions(_ text: String) throws -> SchemaDefinitions {
        var definitions = SchemaDefinitions()
        guard case .object(let members) = try json(text) else { return definitions }
        for member in members { definitions.insert(member.name, schema: member.value) }
        return definitions
    }

    func masked(_ schema: String, _ value: String, definitions: String = "{}") throws -> String {
        let mask = SensitiveMask(schema: try Self.json(schema), definitions: try Self.definitions(definitions))
        return mask.masked(try Self.json(value)).jsonText
    }

    /// A card with its number kept to the last four and its code masked whole, as the generator
    /// writes one (closed, members declared).
    static let cardDefinitions = """
        {"Card": {"type": "object", "additionalProperties": false,
                  "properties": {"number": {"type": "string", "x-sensitive": "last4"},
                                 "securityCode": {"type": "string", "x-sensitive": true},
                                 "expiry": {"type": "string"}}},
         "Order": {"type": "object", "additionalProperties": false,
                   "properties": {"card": {"$ref": "#/definitions/Card"}, "amount": {"type": "string"}}}}
        """

    @Test func nestedObjectsThroughReferences() throws {
        let text = try masked(
            ##"{"$ref": "#/definitions/Order"}"##,
            ##"{"amount": "10.00", "card": {"number": "4111111111111111", "securityCode": "123", "expiry": "2030-11"}}"##,
            definitions: Self.cardDefinitions)
        #expect(text == ##"{"amount":"10.00","card":{"number":"****1111","securityCode":"***","expiry":"2030-11"}}"##)
    }

    @Test func arraysOfModels() throws {
        let text = try masked(
            ##"{"type": "array", "items": {"$ref": "#/definitions/Card"}}"##,
            ##"[{"number": "5555555555554444", "expiry": "2031-01"}, {"number": "4000000000000002"}]"##,
            definitions: Self.cardDefinitions)
        #expect(text == ##"[{"number":"****4444","expiry":"2031-01"},{"number":"****0002"}]"##)
    }

    @Test func additionalPropertiesCarryTheirSchema() throws {
        let schema = ##"{"type": "object", "additionalProperties": {"$ref": "#/definitions/Card"}}"##
        let text = try masked(
            schema, ##"{"home": {"number": "4111111111111111"}, "work": {"expiry": "x"}}"##, definitions: Self.cardDefinitions)
        #expect(text == ##"{"home":{"number":"****1111"},"work":{"expiry":"x"}}"##)
        // A secret as the dictionary's value type.
        let tokens = try masked(
            ##"{"type": "object", "additionalProperties": {"type": "string", "x-sensitive": true}}"##,
            ##"{"a": "t1", "b": "t2"}"##)
        #expect(tokens == ##"{"a":"***","b":"***"}"##)
    }

    @Test func combinatorsAreMerged() throws {
        let schema = """
            {"allOf": [{"$ref": "#/definitions/Card"}], "description": "the card",
             "anyOf": [{"properties": {"pinBlock": {"x-sensitive": true}}}, {"type": "null"}],
             "oneOf": [{"properties": {"otp": {"type": "string", "x-sensitive": true}}}, {"properties": {"other": {}}}]}
            """
        let text = try masked(
            schema, ##"{"number": "4111111111111111", "pinBlock": "0412", "otp": "987654", "other": 1}"##,
            definitions: Self.cardDefinitions)
        #expect(text == ##"{"number":"****1111","pinBlock":"***","otp":"***","other":1}"##)
        // An optional result: the model or null.
        let optional = ##"{"anyOf": [{"$ref": "#/definitions/Card"}, {"type": "null"}]}"##
        #expect(try masked(optional, "null", definitions: Self.cardDefinitions) == "null")
        #expect(
            try masked(optional, ##"{"securityCode": "999"}"##, definitions: Self.cardDefinitions) == ##"{"securityCode":"***"}"##
        )
    }

    @Test func lastFourAndWholeOfEveryType() throws {
        let schema = """
            {"type": "object", "properties": {
               "pan": {"x-sensitive": "last4"}, "secret": {"x-sensitive": true}}}
            """
        #expect(try masked(schema, ##"{"pan": "4111111111111111"}"##) == ##"{"pan":"****1111"}"##)
        // Too short to keep four without showing half of it.
        #expect(try masked(schema, ##"{"pan": "1234567"}"##) == ##"{"pan":"****"}"##)
        #expect(try masked(schema, ##"{"pan": "12345678"}"##) == ##"{"pan":"****5678"}"##)
        // A number given where a string is expected is masked the same way.
        #expect(try masked(schema, ##"{"pan": 4111111111111111}"##) == ##"{"pan":"****1111"}"##)
        #expect(try masked(schema, ##"{"pan": {"digits": "4111"}}"##) == ##"{"pan":"****"}"##)
        for value in ["\"s3cr3t\"", "1234", "true", "[1,2]", ##"{"a":"b"}"##] {
            #expect(try masked(schema, ##"{"secret": \##(value)}"##) == ##"{"secret":"***"}"##)
        }
        // Null holds nothing and stays null.
        #expect(try masked(schema, ##"{"secret": null, "pan": null}"##) == ##"{"secret":null,"pan":null}"##)
    }

    @Test func cyclesEndAndMaskAtEveryDepth() throws {
        let definitions = """
            {"Node": {"type": "object", "additionalProperties": false,
                      "properties": {"token": {"type": "string", "x-sensitive": true},
                                     "children": {"type": "array", "items": {"$ref": "#/definitions/Node"}},
                                     "next": {"anyOf": [{"$ref": "#/definitions/Node"}, {"type": "null"}]}}},
             "Loop": {"allOf": [{"$ref": "#/definitions/Loop"}]},
             "Quiet": {"type": "object", "additionalProperties": false,
                       "properties": {"name": {"type": "string"}, "again": {"$ref": "#/definitions/Quiet"}}}}
            """
        let text = try masked(
            ##"{"$ref": "#/definitions/Node"}"##,
            ##"{"token": "a", "children": [{"token": "b", "children": [{"token": "c"}]}], "next": {"next": {"token": "d"}}}"##,
            definitions: definitions)
        #expect(
            text
                == ##"{"token":"***","children":[{"token":"***","children":[{"token":"***"}]}],"next":{"next":{"token":"***"}}}"##
        )
        // A reference cycle through combinators alone describes nothing: masked by name.
        let loop = SensitiveMask(
            schema: try Self.json(##"{"$ref": "#/definitions/Loop"}"##), definitions: try Self.definitions(definitions))
        #expect(loop == .byName)
        // A cycle of models that declare nothing is clean.
        let quiet = SensitiveMask(
            schema: try Self.json(##"{"$ref": "#/definitions/Quiet"}"##), definitions: try Self.definitions(definitions))
        #expect(quiet.isEmpty && quiet == .none)
    }

    @Test func schemasWithoutSecretsAreEmpty() throws {
        let empty = SensitiveMask(
            schema: try Self.json(
                ##"{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"type": "integer"}}}}"##
            ),
            definitions: SchemaDefinitions())
        #expect(empty.isEmpty)
        #expect(SensitiveMask.none.isEmpty)
        #expect(!SensitiveMask.byName.isEmpty)
        let value = try Self.json(##"{"a": "x", "password": "y"}"##)
        #expect(empty.masked(value) == value)
        // The same schema twice is the same mask; a mask is made once and compared by value.
        let card = try Self.json(##"{"$ref": "#/definitions/Card"}"##)
        let first = SensitiveMask(schema: card, definitions: try Self.definitions(Self.cardDefinitions))
        let second = SensitiveMask(schema: card, definitions: try Self.definitions(Self.cardDefinitions))
        #expect(first == second && !first.isEmpty && first != .byName)
    }

    @Test func undeclaredMembersAndFreeFormPositionsGetTheNameRule() throws {
        // Open objects (no `additionalProperties: false`) and `{}` positions are not described.
        let schema = """
            {"type": "object", "properties": {"tokenType": {"type": "string"}, "data": {},
                                              "card": {"$ref": "#/definitions/Card"}}}
            """
        let text = try masked(
            schema,
            ##"{"tokenType": "Bearer", "access_token": "abc", "data": {"password": "p", "card": {"number": "4111111111111111"}, "pinRequired": true}, "card": {"number": "4111111111111111", "cvv": "123"}}"##,
            definitions: Self.cardDefinitions)
        #expect(
            text
                == ##"{"tokenType":"Bearer","access_token":"***","data":{"password":"***","card":{"number":"****1111"},"pinRequired":true},"card":{"number":"****1111","cvv":"***"}}"##
        )
        // A free-form value: masked by name all the way down.
        #expect(SensitiveMask(schema: .object([]), definitions: SchemaDefinitions()) == .byName)
    }

    @Test func byNameMasksWhatLooksSecret() throws {
        let value = try Self.json(
            ##"{"payment_source": {"card": {"number": "4032036247327321", "security_code": "123", "expiry": "2030-11"}}, "client_secret": "s", "items": [{"PIN": "1234", "name": "x"}], "cardNumber": "5555555555554444", "count": 3}"##
        )
        #expect(
            SensitiveMask.byName.masked(value).jsonText
                == ##"{"payment_source":{"card":{"number":"****7321","security_code":"***","expiry":"2030-11"}},"client_secret":"***","items":[{"PIN":"***","name":"x"}],"cardNumber":"****4444","count":3}"##
        )
        // `number` outside a card object is not a card number.
        let operation = try Self.json(##"{"operation": {"number": "M1234-5678"}}"##)
        #expect(SensitiveMask.byName.masked(operation) == operation)
    }

    @Test func topLevelStylesForFormBodies() throws {
        let mask = SensitiveMask(
            schema: try Self.json(##"{"$ref": "#/definitions/Card"}"##), definitions: try Self.definitions(Self.cardDefinitions))
        #expect(mask.style(ofTopLevelMember: "number") == .last4)
        #expect(mask.style(ofTopLevelMember: "securityCode") == .whole)
        #expect(mask.style(ofTopLevelMember: "expiry") == nil)
        // Not declared: the name rule.
        #expect(mask.style(ofTopLevelMember: "client_secret") == .whole)
        #expect(SensitiveMask.byName.style(ofTopLevelMember: "password") == .whole)
        #expect(SensitiveMask.byName.style(ofTopLevelMember: "grant_type") == nil)
        #expect(SensitiveMask.none.style(ofTopLevelMember: "password") == nil)
    }

    @Test func stylesReadTheirSchemaValues() {
        #expect(SensitiveStyle(schemaValue: .bool(true)) == .whole)
        #expect(SensitiveStyle(schemaValue: .string("last4")) == .last4)
        #expect(SensitiveStyle(schemaValue: .string("middle")) == nil)
        #expect(SensitiveStyle(schemaValue: .bool(false)) == nil)
        #expect(SensitiveStyle.whole.schemaValue == .bool(true) && SensitiveStyle.last4.schemaValue == .string("last4"))
        // A value the generator refuses still marks a secret, masked whole.
        let mask = SensitiveMask(
            schema: .object([.init("properties", .object([.init("x", .object([.init("x-sensitive", .string("middle"))]))]))]),
            definitions: SchemaDefinitions())
        #expect(mask.masked(.object([.init("x", .string("1234567890"))])) == .object([.init("x", .string("***"))]))
    }
}
