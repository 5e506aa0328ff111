import Foundation
import PayRPCJSON
import PayRPCSchema
import Testing

/// The checked decoders the generator writes for the sample's params models (`checking(_:)`),
/// against the pair they replace: the model's schema, validated, then its codec. A checked
/// decoder never accepts what the pair refuses, reads what it accepts into the pair's model, and
/// accepts the valid spellings a client sends (it may leave rarer ones to the validator).
@Suite struct CheckedDecoderTests {
    static let payment =
        #"{"id":9007199254740993,"count":-3,"small":7,"unsigned":4,"ratio":0.25,"approved":true,"amount":"10.00","#
        + #""payee":{"fullName":"B","phones":["1"],"added":"2026-01-31T12:00:00Z","image_url":"https://example.com/a.png","#
        + #""currency":"CZK","labels":{"sk":"Ana"},"usualAmount":"-0.5","preferred":"instant","extra":{"a":[1,true,null]}},"#
        + #""history":[],"notes":["a",null],"status":{"code":"OK","at":"2026-01-31T12:00:00Z"},"legacyStatus":"x","#
        + #""default":true,"say \"hi\"":"hello","references":["ref-0042"]}"#

    /// What the pair answers, and what the checked decoder answers.
    struct Answers<Model: Equatable> {
        var violations: [SchemaViolation]
        var decoded: Model?
        var checked: Model?
    }

    /// The sample payment's schema, compiled once (compiling takes longer than a thousand
    /// validations, and the mutations test validates thousands).
    static let paymentSchema = Result { () throws(SchemaCompileError) in try CompiledSchema(SamplePayment.standaloneSchema) }

    static func answers<Model: CheckedJSONDecodable & JSONModel & Equatable>(_ type: Model.Type, _ text: String) throws
        -> Answers<Model>
    {
        let schema =
            ObjectIdentifier(type) == ObjectIdentifier(SamplePayment.self)
            ? try paymentSchema.get() : try CompiledSchema(Model.standaloneSchema)
        let tape = try JSONTape(string: text)
        return Answers(
            violations: schema.validate(tape.root), decoded: try? Model(json: tape.root), checked: Model.checking(tape.root))
    }

    /// Checks the promises on one input; returns whether the decoder accepted it.
    @discardableResult
    static func agree<Model: CheckedJSONDecodable & JSONModel & Equatable>(_ type: Model.Type, _ text: String) throws -> Bool {
        let answers = try Self.answers(type, text)
        guard let checked = answers.checked else { return false }
        #expect(answers.violations.isEmpty, "the checked decoder accepts \(text), which breaks the schema: \(answers.violations)")
        #expect(answers.decoded == checked, "the checked decoder reads \(text) otherwise than the codec")
        return true
    }

    @Test func validParamsAreReadAsTheCodecReadsThem() throws {
        #expect(try Self.agree(SamplePayment.self, Self.payment))
        #expect(try Self.agree(SamplePayment.self, SampleTests.paymentJSON()))
        #expect(try Self.agree(SampleOrderInput.self, #"{"note":"n","items":["a"]}"#))
        #expect(try Self.agree(SampleOrderInput.self, #"{"orderId":"o-1"}"#))
        #expect(try Self.agree(SampleEmpty.self, "{}"))
        // Escaped member names and values are read and compared as the validator reads them.
        #expect(try Self.agree(SampleOrderInput.self, #"{"order\u0049d":"o\u002d1"}"#))
    }

    @Test(
        "what the schema refuses, the checked decoder refuses",
        arguments: [
            (#""amount":"10.00""#, #""amount":"010.00""#),  // the amount's pattern
            (#""small":7"#, #""small":3000000000"#),  // Int32's range
            (#""id":9007199254740993"#, #""id":0"#),  // - Minimum: 1
            (#""ratio":0.25"#, #""ratio":0"#),  // - ExclusiveMinimum: 0
            (#""unsigned":4"#, #""unsigned":-1"#),  // UInt's range
            (#""fullName":"B""#, #""fullName":"""#),  // - MinLength: 1
            (#""currency":"CZK""#, #""currency":"czk""#),  // - Pattern: ^[A-Z]{3}$
            (#""image_url":"https://example.com/a.png""#, #""image_url":"no scheme""#),  // format: uri
            (#""added":"2026-01-31T12:00:00Z""#, #""added":"2026-02-31T12:00:00Z""#),  // format: date-time
            (#""references":["ref-0042"]"#, #""references":["REF-1"]"#),  // a named format
            (#""preferred":"instant""#, #""preferred":"instantTransfer""#),  // an enum's raw values
            (#""notes":["a",null]"#, #""notes":["a",1]"#),  // items of [String?]
            (#""labels":{"sk":"Ana"}"#, #""labels":{"sk":1}"#),  // a dictionary's values
            (#""legacyStatus":"x""#, #""legacyStatus":null"#),  // null for an optional String
            (#""approved":true"#, #""approved":"true""#),  // a Boolean's type
            (#""history":[]"#, #""history":[],"unknown":1"#),  // additionalProperties: false
            (#""code":"OK""#, #""code":"OK","at":null,"x":{}"#),  // ... in a nested model
        ])
    func refusesWhatTheSchemaRefuses(valid: String, broken: String) throws {
        let text = Self.payment.replacingOccurrences(of: valid, with: broken)
        #expect(text != Self.payment)
        let answers = try Self.answers(SamplePayment.self, text)
        #expect(!answers.violations.isEmpty || answers.decoded == nil)
        #expect(answers.checked == nil)
    }

    @Test func aUnionNeedsExactlyOneCase() throws {
        #expect(try !Self.agree(SampleOrderInput.self, #"{"orderId":"o-1","items":[]}"#))
        #expect(try !Self.agree(SampleOrderInput.self, #"{"note":"n"}"#))
        #expect(try !Self.agree(SampleOrderInput.self, #"[]"#))
        #expect(try Self.agree(SampleOrderInput.self, #"{"orderId":"o-1","orderId":"o-2"}"#))
    }

    @Test func integersWithAFractionAreLeftToTheValidator() throws {
        // `1.0` is an integer to the schema and the codec reads it; the checked decoder reads plain
        // integers only and leaves the rest to them (the engine asks them when it answers nil).
        let text = Self.payment.replacingOccurrences(of: #""count":-3"#, with: #""count":-3.0"#)
        let answers = try Self.answers(SamplePayment.self, text)
        #expect(answers.violations.isEmpty)
        #expect(answers.decoded?.count == -3)
        #expect(answers.checked == nil)
    }

    @Test func aModelWithAHandWrittenMemberHasNoCheckedDecoder() {
        #expect(!(SampleUsesHandWritten.self is any CheckedJSONDecodable.Type))
        #expect(SamplePayment.self is any CheckedJSONDecodable.Type)
    }

    /// Every member of the sample payment removed, replaced by values of every kind, and an
    /// unknown member added, at every depth: the promises hold for each.
    @Test func mutationsOfTheSamplePayment() throws {
        let tape = try JSONTape(string: Self.payment)
        let original = JSONValue(tape.root)
        var accepted = 0
        var mutations = 0
        for mutation in Self.mutations(of: original) {
            mutations += 1
            if try Self.agree(SamplePayment.self, mutation.jsonText) { accepted += 1 }
        }
        #expect(mutations > 300)
        #expect(accepted > 20)  // the mutations that keep the params valid are read in one pass
    }

    static let replacements: [JSONValue] = [
        .null, true, 0, 1, -1, .number("0.5"), .number("1e2"), .number("9223372036854775808"), "", "x", "ref-0042", "EUR",
        "12.50", "instant", "2026-01-31T12:00:00Z", "https://example.com", [], ["x"], [.null], [:], ["code": "OK"],
    ]

    static func mutations(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .object(let members):
            var result: [JSONValue] = [.object(members + [JSONValue.Member("unknown", 1)])]
            for (index, member) in members.enumerated() {
                var removed = members
                removed.remove(at: index)
                result.append(.object(removed))
                for replacement in replacements + mutations(of: member.value) {
                    var changed = members
                    changed[index] = JSONValue.Member(member.name, replacement)
                    result.append(.object(changed))
                }
            }
            return result
        case .array(let items):
            var result: [JSONValue] = [.array(items + items)]
            for (index, item) in items.enumerated() {
                for replacement in replacements.prefix(8) + mutations(of: item) {
                    var changed = items
                    changed[index] = replacement
                    result.append(.array(changed))
                }
            }
            return result
        default:
            return []
        }
    }
}
