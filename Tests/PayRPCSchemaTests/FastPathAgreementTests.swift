import Foundation
import PayRPCJSON
@testable import PayRPCSchema
import PayRPCTestSupport
import Testing
import PayRPCCore
import PayRPCSandbox

/// `isValid` (the ``ValidityProgram`` walk) gives the answer of the collecting walker
/// (`validateCollectingOnly`, which never asks `isValid`) on every value tried: the
/// JSON-Schema-Test-Suite's, and seeded random mutations of `tatra.executePayment` params.
@Suite("isValid agrees with the collecting walker", .longComputation)
struct FastPathAgreementTests {
    /// The collecting walker's answer and `isValid`'s for `text` against `schema`, as a mismatch
    /// description (nil when they agree).
    static func disagreement(_ schema: CompiledSchema, _ tape: JSONTape) -> String? {
        let quick = schema.isValid(tape.root)
        let violations = schema.validateCollectingOnly(tape.root)
        guard quick != violations.isEmpty else { return nil }
        return "isValid \(quick), collecting walker \(violations.isEmpty ? "no violations" : "\(violations)")"
    }

    /// Every schema of a suite file against every value of the same file (not only its own group's),
    /// so each schema meets many more values than the suite pairs it with.
    @Test("every JSON-Schema-Test-Suite draft7 schema against every value of its file")
    func jsonSchemaTestSuite() throws {
        let files = try TestData.draft7Files()
        var compared = 0
        var mismatches: [String] = []
        for file in files where JSONSchemaTestSuiteTests.skippedFiles[file] == nil {
            guard case .array(let groups) = try TestData.json("\(TestData.draft7Folder)/\(file)") else { continue }
            var values: [(name: String, tape: JSONTape)] = []
            for group in groups {
                guard case .array(let tests)? = group["tests"] else { continue }
                for test in tests {
                    values.append((test["description"]?.stringValue ?? "?", try TestData.tape(test["data"] ?? .null)))
                }
            }
            for group in groups {
                guard let schema = try? CompiledSchema(group["schema"] ?? true) else { continue }
                for value in values {
                    compared += 1
                    if let problem = Self.disagreement(schema, value.tape) {
                        mismatches.append("\(file): \(group["description"]?.stringValue ?? "?") × \(value.name): \(problem)")
                    }
                }
            }
        }
        print("isValid agreement: \(compared) schema × value pairs of the JSON-Schema-Test-Suite")
        #expect(compared > 5000)
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    // MARK: Mutations of executePayment params

    /// `tatra.executePayment`'s params schema as the router compiles it (`allOf` of the params
    /// `$ref`, with the method's definitions), from `Schemas/methods/`.
    static func executePaymentSchema() throws -> CompiledSchema? {
        let url = TestData.repositoryRoot.appendingPathComponent("Schemas/methods/tatra.executePayment.json")
        guard let data = try? Data(contentsOf: url) else { return nil }
        let method = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        guard let params = method["params"], let definitions = method["definitions"] else { return nil }
        return try CompiledSchema(.object([.init("allOf", .array([params])), .init("definitions", definitions)]))
    }

    /// A schema like executePayment's with the cases a member group must get right: a `required`
    /// name that is not a property, a repeated property name, names that need escaping or are
    /// not ASCII (one precomposed, one decomposed: the compiler looks both up with `String`
    /// equality, so both get the first one's schema), an empty name, a name longer than 16 bytes,
    /// an `additionalProperties` schema, `false` and `true` property schemas.
    static let trickySchema = #"""
        {
          "definitions": {
            "contact": {
              "type": "object",
              "properties": {
                "fullName": {"type": "string", "minLength": 2, "maxLength": 8},
                "phones": {"type": "array", "items": {"type": "string", "pattern": "^\\+[0-9]{3,12}$"}, "maxItems": 2},
                "image": {"type": "string", "format": "uri"},
                "é": {"type": "integer"},
                "e\u0301": {"type": "boolean"},
                "": {"type": "null"},
                "a/b~c": {"enum": ["x", "y\n", 3, null, {"k": [1]}]}
              },
              "required": ["fullName", "phones", "nickname"],
              "additionalProperties": {"type": ["string", "integer"], "const": "ok"}
            }
          },
          "type": "object",
          "properties": {
            "amount": {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$"},
            "contact": {"allOf": [{"$ref": "#/definitions/contact"}], "description": "annotation only"},
            "reference": {"type": "string"},
            "reference": {"type": "integer"},
            "forbidden": false,
            "anything": true,
            "count": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
            "transactionReferenceNumber": {"type": "string"}
          },
          "required": ["amount", "contact", "amount"],
          "additionalProperties": false
        }
        """#

    /// Member names a mutation may rename to: near misses of the schemas' names and names of
    /// the other object.
    static let names = [
        "amount", "amoun", "amountx", "Amount", "contact", "reference", "fullName", "phones", "image",
        "nickname", "forbidden", "anything", "count", "é", "e\u{301}", "", "a/b~c", "x", "fullname",
        "transactionReferenceNumber", "transactionRefXrenceNumber",
        // Android's spellings: executePayment's alias rules (anyOf + dependencies).
        "recepient", "messageForRecipient", "phone", "icon",
    ]

    /// Values a mutation may put in place of another: every kind, and strings near the accepted ones.
    static let replacements: [JSONValue] = [
        .null, true, false, 0, 1, 2, 11, .number("2.0"), .number("-0.5"), .number("1e1"), "", "ok", "x", "y\n",
        "12.50", "12.", "012", "-0", "1.5e3", "Jana", "Jana Nováková", "+421900123456", "421", "https://x.example/a",
        [], ["+421900123456"], ["+421900123456", "+1234"], ["+421900123456", 5], [:], ["k": [1]], ["fullName": "Jo"],
    ]

    /// A random change to `value`, at the top or further down.
    static func mutate(_ value: JSONValue, _ random: inout SeededGenerator) -> JSONValue {
        switch value {
        case .object(var members):
            let choice = Int.random(in: 0..<10, using: &random)
            switch choice {
            case 0 where !members.isEmpty:
                members.remove(at: Int.random(in: members.indices, using: &random))
            case 1 where !members.isEmpty:
                let member = members[Int.random(in: members.indices, using: &random)]
                members.insert(member, at: Int.random(in: 0...members.count, using: &random))
            case 2 where !members.isEmpty:
                members[Int.random(in: members.indices, using: &random)].name = names.randomElement(using: &random)!
            case 3:
                members.append(.init(names.randomElement(using: &random)!, replacements.randomElement(using: &random)!))
            case 4:
                return replacements.randomElement(using: &random)!
            case 5 where members.count > 1:
                members.shuffle(using: &random)
            default:
                guard !members.isEmpty else { return value }
                let position = Int.random(in: members.indices, using: &random)
                members[position].value = mutate(members[position].value, &random)
            }
            return .object(members)
        case .array(var items):
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !items.isEmpty: items.removeLast()
            case 1: items.append(replacements.randomElement(using: &random)!)
            case 2: return replacements.randomElement(using: &random)!
            default:
                guard !items.isEmpty else { return value }
                let position = Int.random(in: items.indices, using: &random)
                items[position] = mutate(items[position], &random)
            }
            return .array(items)
        default:
            return replacements.randomElement(using: &random)!
        }
    }

    /// `value` as JSON text, with some strings and member names written with `\u` escapes (or
    /// `\/`) so that their bytes are not their text.
    static func text(_ value: JSONValue, _ random: inout SeededGenerator) -> String {
        switch value {
        case .null, .bool, .number: return value.jsonText
        case .string(let string): return quoted(string, &random)
        case .array(let items): return "[" + items.map { text($0, &random) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quoted($0.name, &random) + ":" + text($0.value, &random) }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal for `string`, escaped at random one time in four.
    static func quoted(_ string: String, _ random: inout SeededGenerator) -> String {
        guard Int.random(in: 0..<4, using: &random) == 0 else { return JSONValue.string(string).jsonText }
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "/": out += "\\/"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    out += String(format: "\\u%04x\\u%04x", 0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF))
                } else {
                    out += String(format: "\\u%04x", scalar.value)
                }
            }
        }
        return out + "\""
    }

    /// Runs `count` mutation chains from `base` against `schema`; returns how many mutated values
    /// were valid and invalid, recording every disagreement.
    static func mutationRun(_ schema: CompiledSchema, base: JSONValue, seed: UInt64, count: Int) throws -> (
        valid: Int, invalid: Int
    ) {
        var random = SeededGenerator(seed: seed)
        var valid = 0, invalid = 0
        for round in 0..<count {
            var value = base
            for _ in 0..<Int.random(in: 0...3, using: &random) { value = mutate(value, &random) }
            let json = text(value, &random)
            let tape = try JSONTape(string: json)
            if schema.isValid(tape.root) { valid += 1 } else { invalid += 1 }
            if let problem = disagreement(schema, tape) {
                Issue.record("seed \(seed) round \(round): \(json): \(problem)")
            }
        }
        return (valid, invalid)
    }

    static let executePaymentParams: JSONValue = [
        "amount": "12.50",
        "contact": ["fullName": "Jana Nováková", "phones": ["+421900123456"]],
        "reference": "Invoice 2026-001 for services",
    ]

    @Test("seeded mutations of executePayment params against its schema", arguments: [1, 2, 3] as [UInt64])
    func executePaymentMutations(seed: UInt64) throws {
        guard let schema = try Self.executePaymentSchema() else {
            Issue.record("Schemas/methods/tatra.executePayment.json not found")
            return
        }
        #expect(try JSONTape(string: Self.executePaymentParams.jsonText).withRoot { schema.isValid($0) })
        let counts = try Self.mutationRun(schema, base: Self.executePaymentParams, seed: seed, count: 800)
        #expect(counts.valid > 100 && counts.invalid > 100, "\(counts)")
    }

    @Test("seeded mutations against a schema with every member-group corner", arguments: [11, 12, 13] as [UInt64])
    func trickyMutations(seed: UInt64) throws {
        let schema = try CompiledSchema(try JSONValue(parsing: Self.trickySchema))
        let base: JSONValue = [
            "amount": "12.50",
            "contact": [
                "fullName": "Jana", "phones": ["+421900123456"], "nickname": "ok", "é": 1, "e\u{301}": 2,
                "": nil, "a/b~c": "x",
            ],
            "reference": "r",
            "anything": [1, 2],
            "count": 4,
        ]
        let violations = try JSONTape(string: base.jsonText).withRoot { schema.validate($0) }
        #expect(violations.isEmpty, "\(violations)")
        let counts = try Self.mutationRun(schema, base: base, seed: seed, count: 800)
        #expect(counts.valid > 100 && counts.invalid > 100, "\(counts)")
    }

    @Test("member names are matched exactly as the collecting walker matches them")
    func memberNameCorners() throws {
        let schema = try CompiledSchema(try JSONValue(parsing: Self.trickySchema))
        let contact = #""contact":{"fullName":"Jana","phones":[],"nickname":"ok""#
        let cases: [(String, Bool)] = [
            (#"{"\u0061mount":"1",\#(contact)}}"#, true),  // escaped name of a property
            (#"{"amount":"1","amount":"2",\#(contact)}}"#, true),  // repeated member
            (#"{"amount":"1","amount":"x",\#(contact)}}"#, false),  // the repeat is checked too
            (#"{"amount":"1",\#(contact),"\u00e9":1}}"#, true),  // escaped é
            (#"{"amount":"1",\#(contact),"e\u0301":"1"}}"#, false),  // escaped decomposed é
            (#"{"amount":"1",\#(contact),"é":true}}"#, false),  // precomposed é: integer
            (#"{"amount":"1",\#(contact),"":null}}"#, true),  // empty name
            (#"{"amount":"1",\#(contact),"a\/b~c":{"k":[1.0]}}}"#, true),  // escaped slash, enum object
            (#"{"amount":"1",\#(contact),"x":"ok"}}"#, true),  // additionalProperties schema
            (#"{"amount":"1",\#(contact),"x":"no"}}"#, false),
            (#"{"amount":"1","contact":{"fullName":"Jana","phones":[]}}"#, false),  // required, not a property
            (#"{"amount":"1","contact":{"fullName":"Jana","phones":[],"nick\u006eame":"ok"}}"#, true),
            (#"{"amount":"1",\#(contact)},"forbidden":1}"#, false),
            (#"{"amount":"1",\#(contact)},"anything":{}}"#, true),
            (#"{"amount":"1",\#(contact)},"reference":"text"}"#, true),  // the first of two properties applies
            (#"{"amount":"1",\#(contact)},"reference":3}"#, false),
            (#"{"amount":"1",\#(contact)},"transactionReferenceNumber":"t"}"#, true),
            (#"{"amount":"1",\#(contact)},"transactionRefXrenceNumber":"t"}"#, false),  // same first and last 8 bytes
        ]
        for (json, expected) in cases {
            let tape = try JSONTape(string: json)
            #expect(Self.disagreement(schema, tape) == nil, "\(json)")
            #expect(schema.isValid(tape.root) == expected, "\(json)")
        }
    }
}
