import PayRPCJSON
import PayRPCSchema
import Testing

/// An integer's schema accepts exactly what its codec reads (a JSON integer that fits an
/// `Int64`). Found by the codecs fuzz target: a 91-digit integer in `sandbox.delay`'s result
/// passed the unbounded `integer` schema and failed the codec.
@Suite("Integer schemas carry the codec's range")
struct IntegerRangeTests {
    func accepts(_ schema: JSONValue, _ text: String) throws -> Bool {
        let compiled = try CompiledSchema(schema)
        let schemaSays = try JSONTape(string: text).withRoot { compiled.isValid($0) }
        let codecSays = (try? JSONTape(string: text).withRoot { try Int(json: $0) }) != nil
        #expect(schemaSays == codecSays, "schema and codec disagree on \(text)")
        return schemaSays
    }

    @Test(arguments: [
        ("9223372036854775807", true), ("-9223372036854775808", true), ("0", true),
        ("9223372036854775808", false), ("-9223372036854775809", false),
        ("4666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666", false),
    ])
    func intAndInt64(_ text: String, _ fits: Bool) throws {
        #expect(try accepts(Int.schemaReference, text) == fits)
        #expect(try accepts(Int64.schemaReference, text) == fits)
    }

    @Test func uintStopsWhereItsCodecDoes() throws {
        let compiled = try CompiledSchema(UInt.schemaReference)
        #expect(try JSONTape(string: "9223372036854775807").withRoot { compiled.isValid($0) })
        #expect(try !JSONTape(string: "9223372036854775808").withRoot { compiled.isValid($0) })
        #expect(try !JSONTape(string: "-1").withRoot { compiled.isValid($0) })
        #expect((try? JSONTape(string: "9223372036854775808").withRoot { try UInt(json: $0) }) == nil)
    }
}
