#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema
import Testing
@testable import PayRPCCodegen
import Foundation

/// The sample models compiled with their generated codec: proves the generated code builds
/// under Swift 6 and reads and writes what the schema says.
@Suite struct SampleTests {
    static let sampleDirectory = TestPaths.testsDirectory.appendingPathComponent("Sample")

    @Test func committedSampleCodecMatchesTheGenerator() throws {
        let source = try TestPaths.read(Self.sampleDirectory.appendingPathComponent("Sample.swift"))
        let module = ModuleSources(
            module: "PayRPCCodegenTests", prefix: "sample",
            outputPath: "Tests/PayRPCCodegenTests/Sample/Sample+Generated.swift",
            files: [SourceFile(path: "Tests/PayRPCCodegenTests/Sample/Sample.swift", text: source)])
        let generated = try #require(try ModelGenerator.generate([module]).first)
        let url = Self.sampleDirectory.appendingPathComponent("Sample+Generated.swift")
        if TestPaths.isRecording { try TestPaths.write(generated.contents, to: url) }
        let committed = try TestPaths.read(url)
        #expect(
            committed == generated.contents,
            "Sample+Generated.swift is stale: rerun with PAYRPC_RECORD=1 and commit it")
    }

    static func decode<T: JSONDecodable>(_ type: T.Type, _ text: String) throws -> T {
        let tape = try JSONTape(string: text)
        return try T(json: tape.root)
    }

    static func encode(_ value: some JSONEncodable) -> String {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return writer.text
    }

    static func decodingError<T: JSONDecodable>(_ type: T.Type, _ text: String) throws -> JSONDecodingError? {
        let tape = try JSONTape(string: text)
        do {
            _ = try T(json: tape.root)
            return nil
        } catch {
            return error
        }
    }

    @Test func contactRoundTripsWithRenamedKeyDefaultsAndOptionals() throws {
        let text =
            #"{"fullName":"Ana Nováková","phones":["+421900111222"],"image_url":"https://example.com/a.png","#
            + #""added":"2026-01-31T12:00:00Z","usualAmount":"12.50","preferred":"instant","extra":{"a":[1,true]}}"#
        let contact = try Self.decode(SampleContact.self, text)
        #expect(contact.fullName == "Ana Nováková")
        #expect(contact.phones == ["+421900111222"])
        #expect(contact.image == URL(string: "https://example.com/a.png"))
        #expect(contact.currency == "EUR")  // absent: the initializer's value
        #expect(contact.added == Date(timeIntervalSince1970: 1_769_860_800))
        #expect(contact.usualAmount == Amount("12.50"))
        #expect(contact.preferred == .instantTransfer)
        #expect(contact.labels == nil)
        #expect(contact.extra == ["a": [1, true]])
        let encoded = Self.encode(contact)
        #expect(
            encoded == #"{"fullName":"Ana Nováková","phones":["+421900111222"],"image_url":"https://example.com/a.png","#
                + #""currency":"EUR","added":"2026-01-31T12:00:00Z","usualAmount":"12.50","preferred":"instant","extra":{"a":[1,true]}}"#
        )
        #expect(try Self.decode(SampleContact.self, encoded) == contact)
    }

    @Test func nilOptionalsAreLeftOutAndNullReadsAsNil() throws {
        let contact = try Self.decode(
            SampleContact.self,
            #"{"fullName":"A","phones":[],"added":"2026-01-31T12:00:00Z","image_url":null,"currency":"CZK","labels":{"sk":"Ana"}}"#
        )
        #expect(contact.image == nil)
        #expect(contact.currency == "CZK")
        #expect(contact.labels == ["sk": "Ana"])
        #expect(
            Self.encode(contact)
                == #"{"fullName":"A","phones":[],"currency":"CZK","added":"2026-01-31T12:00:00Z","labels":{"sk":"Ana"},"preferred":"transfer"}"#
        )
    }

    @Test func errorsNameTheMemberWithAPointer() throws {
        let missing = try #require(
            try Self.decodingError(SampleContact.self, #"{"fullName":"A","added":"2026-01-31T12:00:00Z"}"#))
        #expect(missing == .missing("phones"))
        let wrong = try #require(
            try Self.decodingError(SampleContact.self, #"{"fullName":"A","phones":["x",7],"added":"2026-01-31T12:00:00Z"}"#))
        #expect(wrong.pointer == "/phones/1")
        let unknown = try #require(
            try Self.decodingError(SampleContact.self, #"{"fullName":"A","phones":[],"added":"2026-01-31T12:00:00Z","nick":"x"}"#)
        )
        #expect(unknown.pointer == "/nick")
        #expect(unknown.message == "unknown member")
        let notObject = try #require(try Self.decodingError(SampleContact.self, "[]"))
        #expect(notObject.message.contains("expected an object"))
        let nested = try #require(try Self.decodingError(SamplePayment.self, Self.paymentJSON(payee: #"{"fullName":5}"#)))
        #expect(nested.pointer == "/payee/fullName")
    }

    static func paymentJSON(payee: String = #"{"fullName":"B","phones":["1"],"added":"2026-01-31T12:00:00Z"}"#) -> String {
        #"{"id":9007199254740993,"count":-3,"small":7,"unsigned":4,"ratio":0.25,"approved":true,"amount":"10.00","#
            + #""payee":\#(payee),"notes":["a",null],"status":{"code":"OK"},"default":true}"#
    }

    @Test func paymentReadsEveryNumericAndNestedShape() throws {
        let payment = try Self.decode(SamplePayment.self, Self.paymentJSON())
        #expect(payment.id == 9_007_199_254_740_993)
        #expect(payment.count == -3 && payment.small == 7 && payment.unsigned == 4 && payment.ratio == 0.25)
        #expect(payment.approved && payment.default)
        #expect(payment.amount == Amount("10.00"))
        #expect(payment.payee.fullName == "B")
        #expect(payment.history.isEmpty)
        #expect(payment.notes == ["a", nil])
        #expect(payment.status == SamplePayment.Status(code: "OK", at: nil))
        #expect(try Self.decode(SamplePayment.self, Self.encode(payment)) == payment)
        var greeting = payment
        greeting.greeting = "hello"
        let encoded = Self.encode(greeting)
        #expect(encoded.hasSuffix(#","default":true,"say \"hi\"":"hello"}"#))
        #expect(try Self.decode(SamplePayment.self, encoded) == greeting)
        let tooBig = try #require(
            try Self.decodingError(
                SamplePayment.self,
                Self.paymentJSON().replacingOccurrences(of: #""small":7"#, with: #""small":3000000000"#)))
        #expect(tooBig.pointer == "/small")
    }

    @Test func stringEnumReadsRawValuesAndRejectsOthers() throws {
        #expect(try Self.decode(SampleMethod.self, #""card""#) == .card)
        #expect(try Self.decode(SampleMethod.self, #""instant""#) == .instantTransfer)
        #expect(try Self.decode(SampleMethod.self, #""\u0063ard""#) == .card)  // escaped input
        #expect(Self.encode(SampleMethod.instantTransfer) == #""instant""#)
        let other = try #require(try Self.decodingError(SampleMethod.self, #""instantTransfer""#))
        #expect(other.message == #"expected one of "transfer", "card", "instant""#)
        let number = try #require(try Self.decodingError(SampleMethod.self, "1"))
        #expect(number.message.contains("expected a string"))
    }

    @Test func unionPicksTheCaseByItsDiscriminatingMember() throws {
        #expect(
            try Self.decode(SampleOrderInput.self, #"{"note":"n","items":["a"]}"#)
                == .create(SampleCreateOrder(items: ["a"], note: "n")))
        #expect(
            try Self.decode(SampleOrderInput.self, #"{"orderId":"o-1"}"#)
                == .existing(SampleExistingOrder(orderId: "o-1", note: nil)))
        #expect(Self.encode(SampleOrderInput.existing(SampleExistingOrder(orderId: "o-1", note: nil))) == #"{"orderId":"o-1"}"#)
        let neither = try #require(try Self.decodingError(SampleOrderInput.self, #"{"note":"n"}"#))
        #expect(neither.message == #"expected an object with one of the members "items", "orderId""#)
        let inner = try #require(try Self.decodingError(SampleOrderInput.self, #"{"orderId":1}"#))
        #expect(inner.pointer == "/orderId")
    }

    @Test func emptyModelReadsAnEmptyObjectOnly() throws {
        #expect(try Self.decode(SampleEmpty.self, "{}") == SampleEmpty())
        #expect(Self.encode(SampleEmpty()) == "{}")
        #expect(try Self.decodingError(SampleEmpty.self, #"{"x":1}"#)?.pointer == "/x")
    }

    @Test func schemasAreCollectedThroughReferencesOnce() throws {
        var definitions = SchemaDefinitions()
        SamplePayment.collectSchemaDefinitions(into: &definitions)
        #expect(
            definitions.schemas.keys.sorted() == [
                "sample.Contact", "sample.SampleMethod", "sample.SamplePayment", "sample.SamplePaymentStatus",
            ])
        #expect(SampleContact.schemaReference == ["$ref": "#/definitions/sample.Contact"])
        #expect(
            SampleContact.fieldOrder == [
                "fullName", "phones", "image_url", "currency", "added", "labels", "usualAmount", "preferred", "extra",
            ])
        #expect(SampleMethod.fieldOrder == [])
        let contact = try #require(definitions.schemas["sample.Contact"])
        #expect(contact["required"] == ["fullName", "phones", "added"])
        #expect(contact["additionalProperties"] == false)
        #expect(contact["properties"]?["usualAmount"]?["pattern"] == Amount.schemaReference["pattern"])
        #expect(contact["properties"]?["currency"]?["default"] == "EUR")
        #expect(definitions.schemas["sample.SampleOrderInput"] == nil)
        SampleOrderInput.collectSchemaDefinitions(into: &definitions)
        #expect(
            definitions.schemas["sample.SampleOrderInput"]?["oneOf"]
                == [["$ref": "#/definitions/sample.SampleCreateOrder"], ["$ref": "#/definitions/sample.SampleExistingOrder"]])
    }

    @Test func namedFormatsAreStringsWhoseSchemaSaysTheFormatInWords() throws {
        let base =
            #"{"id":1,"count":2,"small":3,"unsigned":4,"ratio":0.5,"approved":true,"amount":"1.00","payee":{"fullName":"A","phones":["+1"],"added":"2026-01-31T12:00:00Z"}"#
        let value = try Self.decode(SamplePayment.self, base + #","references":["ref-0001"]}"#)
        #expect(value.references == ["ref-0001"])
        let schema = try CompiledSchema(SamplePayment.standaloneSchema)
        let tape = try JSONTape(string: base + #","references":["REF-1"]}"#)
        #expect(
            schema.validate(tape.root) == [
                SchemaViolation(
                    pointer: "/references/0", keyword: "pattern",
                    message: #"must be a payment reference: "ref-" and four digits, e.g. "ref-0042""#)
            ])
    }

    @Test func schemaTextIsCanonical() throws {
        // Members in key order, so the text is stable.
        #expect(
            SampleMethod.schemaDefinition.jsonText
                == #"{"description":"How a payment is made.","enum":["transfer","card","instant"],"type":"string"}"#)
    }
}

/// A hand-written model inside generated ones.
@Suite struct HandWrittenModelTests {
    @Test func generatedModelUsesTheHandWrittenCodecAndSchema() throws {
        let value = try SampleTests.decode(SampleUsesHandWritten.self, #"{"point":[1,2],"points":[[3,4]]}"#)
        #expect(value.point == SampleHandWritten(pair: (1, 2)))
        #expect(SampleTests.encode(value) == #"{"point":[1,2],"points":[[3,4]]}"#)
        let schema = SampleUsesHandWritten.schemaDefinition
        #expect(schema["properties"]?["point"] == SampleHandWritten.schemaReference)
        #expect(schema["properties"]?["points"]?["items"] == SampleHandWritten.schemaReference)
        #expect(schema["properties"]?["points"]?["description"] == "Documented, so its schema wraps the run-time one.")
    }

    @Test func secretsDeclaredInTheSourceAreMaskedByTheGeneratedSchema() throws {
        let mask = SensitiveMask(describing: SampleCardInput.self)
        let value = try JSONValue(
            parsing:
                #"{"number": "4111111111111111", "pin": "1234", "holder": "A. N.", "replaced": [{"number": "5555555555554444", "pin": "0000"}]}"#
        )
        #expect(
            mask.masked(value).jsonText
                == #"{"number":"****1111","pin":"***","holder":"A. N.","replaced":[{"number":"****4444","pin":"***"}]}"#)
        #expect(SensitiveMask(describing: SampleCreateOrder.self).isEmpty)
    }
}
