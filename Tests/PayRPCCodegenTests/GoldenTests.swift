import Foundation
import Testing
@testable import PayRPCCodegen

/// A small model source in, the expected generated Swift out: one fixture per construct, in
/// `Fixtures/<Name>.model.txt` and `Fixtures/<Name>.generated.txt` (re-record with
/// `PAYRPC_RECORD=1`).
@Suite struct GoldenTests {
    static let fixtureNames = [
        "Primitives", "OptionalsAndDefaults", "Constraints", "NestedReferences", "StringEnum", "Union",
        "DocComments", "MethodDocs", "Aliases", "Handlers", "NamedFormats", "OtherMembers", "CheckedDecoders",
        "Sensitive",
    ]

    @Test(arguments: fixtureNames)
    func generatedCodeMatchesTheFixture(name: String) throws {
        let source = try TestPaths.read(TestPaths.fixtures.appendingPathComponent("\(name).model.txt"))
        let generated = try #require(try TestPaths.generate([("\(name).swift", source)]))
        let expectedURL = TestPaths.fixtures.appendingPathComponent("\(name).generated.txt")
        if TestPaths.isRecording { try TestPaths.write(generated, to: expectedURL) }
        let expected = try TestPaths.read(expectedURL)
        #expect(generated == expected, "\(name).generated.txt differs; rerun with PAYRPC_RECORD=1 and review the diff")
    }

    @Test(
        "handler names lowercase the type's first word",
        arguments: [
            ("ExecutePayment", "executePayment"), ("OpenURL", "openURL"), ("URLOpen", "urlOpen"),
            ("IsCFIAppAvailable", "isCFIAppAvailable"),
            ("Pay", "pay"), ("URL", "url"), ("authorize", "authorize"),
        ])
    func handlerNames(_ typeName: String, _ expected: String) {
        #expect(ModelAnalyzer.handlerName(of: typeName) == expected)
    }

    @Test func outputIsDeterministicAcrossRunsAndFileOrder() throws {
        let a = ("A.swift", "import PayRPCSchema\n/// A.\nstruct A: JSONModel { var b: B }\n")
        let b = ("B.swift", "import PayRPCSchema\n/// B.\nstruct B: JSONModel { var x: Int }\n")
        let first = try TestPaths.generate([a, b])
        let second = try TestPaths.generate([b, a])
        #expect(first != nil)
        #expect(first == second)
        let text = try #require(first)
        let aIndex = try #require(text.range(of: "extension A {"))
        let bIndex = try #require(text.range(of: "extension B {"))
        #expect(aIndex.lowerBound < bIndex.lowerBound)
    }

    @Test func methodsConformingThroughARefiningProtocolAreDocumented() throws {
        let source = """
            protocol ServiceMethod: RPCMethod {}
            protocol TatraMethod: ServiceMethod {}
            /// Lists contacts.
            enum ListContacts: TatraMethod {}
            """
        let text = try #require(try TestPaths.generate([("M.swift", source)]))
        #expect(text.contains("extension ListContacts {"))
        #expect(text.contains(#"static var summary: String { "Lists contacts." }"#))
        #expect(!text.contains("extension TatraMethod"))
    }

    @Test func builtInAttributesAreAllowedAndAvailableDeprecatedCounts() throws {
        let source = """
            /// T.
            struct T: JSONModel {
                @available(*, deprecated, message: "use b")
                var a: Int?
                var b: Int
            }
            """
        let text = try #require(try TestPaths.generate([("T.swift", source)]))
        #expect(
            text.contains(
                #"""
                            JSONValue.Member("a", .object([
                                JSONValue.Member("deprecated", .bool(true)),
                """#))
    }

    @Test func generatedMembersTakeTheTypesEffectiveAccess() throws {
        let source = """
            /// P.
            public struct P: JSONModel { public var x: Int }
            /// K.
            package struct K: JSONModel { var x: Int }
            enum Outer {
                /// Public, but inside an internal type.
                public struct Inner: JSONModel { public var x: Int }
            }
            """
        let text = try #require(try TestPaths.generate([("A.swift", source)]))
        #expect(
            text.contains(
                "    public init(json: JSONElement) throws(JSONDecodingError) {\n        guard json.kind == .object else { throw .expected(\"an object\", found: json) }\n        var _x: Int? = nil"
            ))
        #expect(text.components(separatedBy: "public init(json:").count == 2)  // P only
        #expect(text.components(separatedBy: "package init(json:").count == 2)  // K
        #expect(
            text.contains(
                "extension Outer.Inner {\n    /// The JSON member names of the stored properties, in declaration order.\n    static var fieldOrder"
            ))
    }

    /// An extension cannot declare an init with the labels of the one Swift synthesizes (an
    /// invalid redeclaration), so the generated file must write none: the model keeps Swift's.
    @Test func aModelGetsNoMemberwiseInitFromTheGenerator() throws {
        let source = """
            /// P.
            public struct P: JSONModel {
                public var x: Int
                public var y: String?
                public var z: Int = 3
            }
            """
        let text = try #require(try TestPaths.generate([("A.swift", source)]))
        let inits = text.components(separatedBy: "init(").count - 1
        #expect(inits > 0 && inits == text.components(separatedBy: "init(json: JSONElement)").count - 1)
        #expect(!text.contains("init(x:"))
    }

    @Test func aModelWithItsOwnCodecIsLeftAlone() throws {
        let source = """
            /// H.
            struct H: JSONModel {
                var pair: (Int, Int)
                func encode(to writer: inout JSONWriter) {}
            }
            """
        #expect(try TestPaths.generate([("H.swift", source)]) == nil)
    }

    @Test func aModuleWithoutModelsOrMethodsGeneratesNothing() throws {
        #expect(try TestPaths.generate([("Plain.swift", "struct Plain { var x: Int }\nfunc f() {}\n")]) == nil)
    }

    @Test func modelsOfAnotherModuleAreQualifiedAndCollected() throws {
        let core = ModuleSources(
            module: "PayRPCCore", prefix: "rpc", outputPath: "Core.swift",
            files: [
                SourceFile(
                    path: "Money.swift",
                    text: "/// Money.\npublic struct Money: JSONModel { public var amount: Amount; public var at: Date }\n")
            ])
        let service = ModuleSources(
            module: "TatraService", prefix: "tatra", outputPath: "Tatra.swift",
            files: [
                SourceFile(
                    path: "Pay.swift",
                    text:
                        "/// Pay.\npublic struct Pay: JSONModel { public var money: Money; public var other: PayRPCCore.Money? }\n"
                )
            ])
        let files = try ModelGenerator.generate([core, service])
        #expect(files.map(\.path) == ["Core.swift", "Tatra.swift"])
        let tatra = files[1].contents
        #expect(tatra.contains("PayRPCCore.Money.collectSchemaDefinitions(into: &definitions)"))
        #expect(tatra.contains("_money = try PayRPCCore.Money(json: memberValue)"))
        #expect(tatra.contains(##"JSONValue.Member("$ref", .string("#/definitions/rpc.Money"))"##))
        #expect(!tatra.contains("import Foundation"))  // Date is in the other module
        #expect(files[0].contents.contains("import Foundation"))
    }

    @Test func sameNameInTheOwnModuleWinsOverOtherModules() throws {
        let core = ModuleSources(
            module: "PayRPCCore", prefix: "rpc", outputPath: "Core.swift",
            files: [
                SourceFile(path: "C.swift", text: "/// C.\npublic struct Contact: JSONModel { public var a: Int }\n")
            ])
        let service = ModuleSources(
            module: "PBBAService", prefix: "pbba", outputPath: "PBBA.swift",
            files: [
                SourceFile(
                    path: "C.swift",
                    text:
                        "/// C.\npublic struct Contact: JSONModel { public var b: Int }\n/// U.\npublic struct User: JSONModel { public var c: Contact }\n"
                )
            ])
        let files = try ModelGenerator.generate([core, service])
        #expect(files[1].contents.contains("#/definitions/pbba.Contact"))
        #expect(!files[1].contents.contains("#/definitions/rpc.Contact"))
    }
}
