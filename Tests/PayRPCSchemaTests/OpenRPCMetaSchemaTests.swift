import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCTestSupport
import Testing

/// The OpenRPC meta-schema from `../shared/testdata/openrpc/` compiles and checks documents.
@Suite("OpenRPC meta-schema")
struct OpenRPCMetaSchemaTests {
    /// The test data folder, once both meta-schema files are found in it (else the test fails,
    /// saying where it looked).
    static func testdata() throws -> URL {
        try SharedTestData.directory(
            containing: "openrpc/openrpc-meta-schema.json", "openrpc/json-schema-tools-meta-schema.json")
    }

    static let minimalDocument = """
        {"openrpc": "1.2.6", "info": {"title": "payrpc", "version": "0.1.0"},
         "methods": [{"name": "rpc.health", "params": [],
                      "result": {"name": "health", "schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}]}
        """

    @Test func compilesAndAcceptsAValidDocument() throws {
        let schema = try OpenRPCMetaSchema.compile(testdataDirectory: try Self.testdata())
        let tape = try JSONTape(string: Self.minimalDocument)
        #expect(schema.validate(tape.root) == [])
        #expect(schema.isValid(tape.root))
    }

    @Test func reportsWhatIsWrongWithADocument() throws {
        let schema = try OpenRPCMetaSchema.compile(testdataDirectory: try Self.testdata())
        let tape = try JSONTape(
            string: """
                {"openrpc": "2.0.0", "info": {"title": "payrpc"}, "methods": [{"params": []}], "extra": 1}
                """)
        let found = schema.validate(tape.root)
        #expect(!schema.isValid(tape.root))
        let summary = Set(found.map { "\($0.pointer) \($0.keyword)" })
        #expect(summary.contains("/openrpc pattern"))
        #expect(summary.contains("/extra additionalProperties"))
        #expect(summary.contains("/info required"))
        #expect(found.contains { $0.pointer.hasPrefix("/methods/0") })
    }

    @Test func versionPlaceholderIsRelaxedToAny1xy() throws {
        let schema = try OpenRPCMetaSchema.compile(testdataDirectory: try Self.testdata())
        for (version, valid) in [
            ("1.0.0", true), ("1.3.2", true), ("1.10.20", true), ("1.2", false), ("2.0.0", false), ("1.2.x", false),
        ] {
            var document = try JSONValue(parsing: Self.minimalDocument)
            if case .object(var members) = document {
                members[0].value = .string(version)
                document = .object(members)
            }
            #expect(schema.isValid(document) == valid, "\(version)")
        }
    }

    @Test func metaSchemaFilesAreDraft07Schemas() throws {
        _ = try Self.testdata()
        let meta = try #require(CompiledSchema.draft07MetaSchema)
        for file in ["openrpc/openrpc-meta-schema.json", "openrpc/json-schema-tools-meta-schema.json"] {
            #expect(meta.validate(try TestData.json(file)) == [], "\(file)")
        }
    }
}
