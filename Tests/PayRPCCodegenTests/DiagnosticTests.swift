import Testing
@testable import PayRPCCodegen

/// Every shape the generator cannot express is an error naming the file, the line and why.
@Suite struct DiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var line: Int
        var reason: String
        var testDescription: String { name }
    }

    static let header = "import PayRPCSchema\n"  // line 1 of every case

    static let cases: [Case] = [
        Case(
            name: "tuple", source: "/// T.\nstruct T: JSONModel {\n    var pair: (Int, Int)\n}\n", line: 4,
            reason: "type `(Int, Int)` is a tuple"),
        Case(
            name: "closure", source: "/// T.\nstruct T: JSONModel {\n    var callback: () -> Void\n}\n", line: 4,
            reason: "is a function"),
        Case(
            name: "generic model", source: "/// T.\nstruct Box<Value>: JSONModel {\n    var value: Value\n}\n", line: 3,
            reason: "`Box` is generic"),
        Case(
            name: "computed-only model", source: "/// T.\nstruct T: JSONModel {\n    var x: Int { 1 }\n}\n", line: 3,
            reason: "has only computed properties"),
        Case(
            name: "unknown type", source: "/// T.\nstruct T: JSONModel {\n    var when: Timestamp\n}\n", line: 4,
            reason: "type `Timestamp` is unknown"),
        Case(
            name: "unsupported primitive", source: "/// T.\nstruct T: JSONModel {\n    var f: Float\n}\n", line: 4,
            reason: "type `Float` is not a supported field type"),
        Case(
            name: "not a model", source: "struct Plain { var x: Int }\n/// T.\nstruct T: JSONModel {\n    var p: Plain\n}\n",
            line: 5, reason: "names `Plain` (Bad.swift:2), which is not a model"),
        Case(
            name: "mixed enum",
            source: "/// E.\nenum E: JSONModel {\n    case a\n    case b(B)\n}\n/// B.\nstruct B: JSONModel { var x: Int }\n",
            line: 4, reason: "mixes cases without associated values (`a`)"),
        Case(
            name: "labeled associated value",
            source: "/// E.\nenum E: JSONModel {\n    case a(b: B)\n}\n/// B.\nstruct B: JSONModel { var x: Int }\n", line: 4,
            reason: "must carry exactly one unlabeled model"),
        Case(
            name: "two associated values",
            source: "/// E.\nenum E: JSONModel {\n    case a(B, B)\n}\n/// B.\nstruct B: JSONModel { var x: Int }\n", line: 4,
            reason: "must carry exactly one unlabeled model"),
        Case(
            name: "union of a primitive", source: "/// E.\nenum E: JSONModel {\n    case a(String)\n}\n", line: 4,
            reason: "a union case must carry a struct model"),
        Case(
            name: "indistinguishable union",
            source:
                "/// E.\nenum E: JSONModel {\n    case a(A)\n    case b(B)\n}\n/// A.\nstruct A: JSONModel { var id: String }\n/// B.\nstruct B: JSONModel { var id: String; var extra: Int? }\n",
            line: 4, reason: "case `a` of union `E` cannot be told apart"),
        Case(
            name: "int raw values", source: "/// E.\nenum E: Int, JSONModel {\n    case a = 1\n}\n", line: 3,
            reason: "has Int raw values"),
        Case(
            name: "non-literal raw value", source: "/// E.\nenum E: String, JSONModel {\n    case a = \"x\\(1)\"\n}\n", line: 4,
            reason: "must be a plain string literal"),
        Case(name: "empty enum", source: "/// E.\nenum E: JSONModel {}\n", line: 3, reason: "has no cases"),
        Case(
            name: "class", source: "/// C.\nfinal class C: JSONModel {\n    var x = 1\n}\n", line: 3,
            reason: "is a class: models are structs or enums"),
        Case(
            name: "private model", source: "/// T.\nprivate struct T: JSONModel {\n    var x: Int\n}\n", line: 3,
            reason: "is private"),
        Case(
            name: "let with initial value", source: "/// T.\nstruct T: JSONModel {\n    let kind: String = \"card\"\n}\n",
            line: 4, reason: "is a constant that cannot be decoded"),
        Case(
            name: "private property", source: "/// T.\nstruct T: JSONModel {\n    private var secret: String\n}\n", line: 4,
            reason: "`secret` can only be set from its own file (private)"),
        Case(
            name: "private setter", source: "/// T.\npublic struct T: JSONModel {\n    public private(set) var x: Int\n}\n",
            line: 4, reason: "`x` can only be set from its own file (private)"),
        Case(
            name: "no type annotation", source: "/// T.\nstruct T: JSONModel {\n    var count = 0\n}\n", line: 4,
            reason: "needs an explicit type annotation"),
        Case(
            name: "lazy", source: "/// T.\nstruct T: JSONModel {\n    lazy var count: Int = 0\n}\n", line: 4,
            reason: "`lazy var count` cannot be decoded"),
        Case(
            name: "property wrapper", source: "/// T.\nstruct T: JSONModel {\n    @Clamped var count: Int\n}\n", line: 4,
            reason: "has the attribute `@Clamped`"),
        Case(
            name: "double optional", source: "/// T.\nstruct T: JSONModel {\n    var x: Int??\n}\n", line: 4,
            reason: "is a double optional"),
        Case(
            name: "int dictionary keys", source: "/// T.\nstruct T: JSONModel {\n    var x: [Int: String]\n}\n", line: 4,
            reason: "has keys that are not String"),
        Case(
            name: "other generic", source: "/// T.\nstruct T: JSONModel {\n    var x: Set<String>\n}\n", line: 4,
            reason: "type `Set<String>` is generic"),
        Case(
            name: "existential", source: "/// T.\nstruct T: JSONModel {\n    var x: any Error\n}\n", line: 4,
            reason: "is existential or opaque"),
        Case(
            name: "bad example",
            source: "/// T.\nstruct T: JSONModel {\n    /// Text.\n    /// - Example: EUR\n    var x: String\n}\n", line: 5,
            reason: "`- Example: EUR` is not a JSON value"),
        Case(
            name: "misspelled tag", source: "/// T.\nstruct T: JSONModel {\n    /// - Minlength: 1\n    var x: String\n}\n",
            line: 4, reason: "did you mean `- MinLength:`"),
        Case(
            name: "tag on the wrong type", source: "/// T.\nstruct T: JSONModel {\n    /// - MinLength: 1\n    var x: Int\n}\n",
            line: 4, reason: "`- MinLength:` applies to string values"),
        Case(
            name: "bad count", source: "/// T.\nstruct T: JSONModel {\n    /// - MaxItems: many\n    var x: [Int]\n}\n", line: 4,
            reason: "needs a non-negative integer"),
        Case(
            name: "bad number", source: "/// T.\nstruct T: JSONModel {\n    /// - Minimum: zero\n    var x: Int\n}\n", line: 4,
            reason: "needs a JSON number"),
        Case(
            name: "field tag on a type", source: "/// T.\n/// - Pattern: x\nstruct T: JSONModel {\n    var x: Int\n}\n", line: 3,
            reason: "`- Pattern:` does not apply to a type"),
        Case(
            name: "default without initializer",
            source: "/// T.\nstruct T: JSONModel {\n    /// - Default: 3\n    var x: Int\n}\n", line: 4,
            reason: "`- Default:` documents the initial value"),
        Case(
            name: "duplicate keys",
            source: "/// T.\nstruct T: JSONModel {\n    var a: Int\n    /// - Key: a\n    var b: Int\n}\n", line: 6,
            reason: "member `a` is also the key"),
        Case(
            name: "duplicate definition",
            source:
                "/// A.\n/// - SchemaName: Same\nstruct A: JSONModel { var x: Int }\n/// B.\n/// - SchemaName: Same\nstruct B: JSONModel { var x: Int }\n",
            line: 7, reason: "has the definition name `fx.Same`, already used by `A` at Bad.swift:4"),
        Case(
            name: "conformance in an extension", source: "struct T { var x: Int }\nextension T: JSONModel {}\n", line: 3,
            reason: "must be declared on `T` itself"),
        Case(
            name: "if config in a model", source: "/// T.\nstruct T: JSONModel {\n#if DEBUG\n    var x: Int\n#endif\n}\n",
            line: 4, reason: "`#if` inside a model body"),
        Case(
            name: "alias of a non-array as one element",
            source: "/// T.\nstruct T: JSONModel {\n    /// - Alias: x (one element)\n    var y: String\n}\n", line: 4,
            reason: "needs an array property"),
        Case(
            name: "alias equal to its own key",
            source: "/// T.\nstruct T: JSONModel {\n    /// - Alias: y\n    var y: String\n}\n", line: 4,
            reason: "is the member's own name"),
        Case(
            name: "alias of two words", source: "/// T.\nstruct T: JSONModel {\n    /// - Alias: a b\n    var y: String\n}\n",
            line: 4, reason: "needs one member name"),
        Case(
            name: "alias taken by another property",
            source: "/// T.\nstruct T: JSONModel {\n    var a: Int\n    /// - Alias: a\n    var b: Int\n}\n", line: 6,
            reason: "alias `a` is also the key"),
        Case(
            name: "handlers on a protocol that is not a method's", source: "/// P.\n/// - Handlers: H\nprotocol P {}\n", line: 3,
            reason: "belongs on a protocol that refines `RPCMethod`"),
        Case(
            name: "handlers without methods", source: "/// P.\n/// - Handlers: H\nprotocol P: RPCMethod {}\n", line: 3,
            reason: "no method of"),
        Case(
            name: "handlers name not a type name",
            source: "/// P.\n/// - Handlers: my handlers\nprotocol P: RPCMethod {}\n/// M.\nenum M: P {}\n", line: 3,
            reason: "needs a Swift type name"),
        Case(
            name: "two handlers of one name",
            source:
                "/// P.\n/// - Handlers: H\nprotocol P: RPCMethod {}\n/// M.\nenum URLOpen: P {}\n/// N.\nenum UrlOpen: P {}\n",
            line: 8, reason: "already the handler of the method on line 6"),
        Case(
            name: "Foundation Decimal", source: "/// T.\nstruct T: JSONModel {\n    var price: Decimal\n}\n", line: 4,
            reason: "use Amount"),
        Case(
            name: "named format of a number",
            source: "/// A count: digits.\n/// - Pattern: ^1$\n/// - Example: \"1\"\ntypealias Count = Int\n", line: 5,
            reason: "must be a typealias of String"),
        Case(
            name: "named format without an example",
            source: "/// A code: one capital.\n/// - Pattern: ^[A-Z]$\ntypealias Code = String\n", line: 4,
            reason: "needs one `- Example:` with a JSON string"),
        Case(
            name: "named format whose example breaks it",
            source: "/// A code: one capital.\n/// - Pattern: ^[A-Z]$\n/// - Example: \"ab\"\ntypealias Code = String\n", line: 4,
            reason: "the example of `Code` is not a value of the format: (root): does not match the pattern ^[A-Z]$"),
        Case(
            name: "named format without a summary",
            source: "/// - Pattern: ^[A-Z]$\n/// - Example: \"A\"\ntypealias Code = String\n", line: 4,
            reason: "needs a summary that names it"),
        Case(
            name: "named format with a field tag",
            source:
                "/// A code: one capital.\n/// - Pattern: ^[A-Z]$\n/// - Minimum: 1\n/// - Example: \"A\"\ntypealias Code = String\n",
            line: 4, reason: "`- Minimum:` does not apply to a named format"),
        Case(
            name: "named format with long words",
            source:
                "/// A code: \(String(repeating: "very ", count: 30))long.\n/// - Pattern: ^[A-Z]$\n/// - Example: \"A\"\ntypealias Code = String\n",
            line: 5, reason: "a message quotes at most 150"),
        Case(
            name: "field changing a named format",
            source:
                "/// A code: one capital.\n/// - Pattern: ^[A-Z]$\n/// - Example: \"A\"\ntypealias Code = String\n/// T.\nstruct T: JSONModel {\n    /// - Pattern: ^B$\n    var code: Code\n}\n",
            line: 8, reason: "`- Pattern:` would change the format `Code` declares"),
        Case(
            name: "field changing the amount format",
            source: "/// T.\nstruct T: JSONModel {\n    /// - MaxLength: 4\n    var price: Amount\n}\n", line: 4,
            reason: "`- MaxLength:` would change the format `Amount` declares"),
        Case(
            name: "alias with two owners",
            source: "/// T.\nstruct T: JSONModel {\n    /// - Alias: a (Android, iOS)\n    var y: String\n}\n", line: 4,
            reason: "needs one member name, optionally followed by whose spelling it is"),
        Case(
            name: "undocumented method", source: "enum Ping: RPCMethod {\n    static let name = \"rpc.ping\"\n}\n", line: 2,
            reason: "method `Ping` has no doc comment"),
        Case(
            name: "trait declared as a property of its own",
            source: "/// P.\nenum Ping: RPCMethod {\n    static let name = \"rpc.ping\"\n    static let runsInline = true\n}\n",
            line: 5, reason: "`static let runsInline` is not read: list `.runsInline` in the method's `traits"),
        Case(
            name: "traits not an array literal",
            source:
                "/// P.\nenum Ping: RPCMethod {\n    static let name = \"rpc.ping\"\n    static var traits: MethodTraits { [.runsInline] }\n}\n",
            line: 5, reason: "`traits` must be an array literal of `MethodTraits` members"),
        Case(
            name: "sensitive with an unknown way to mask",
            source: "/// T.\nstruct T: JSONModel {\n    /// The PAN.\n    /// - Sensitive: middle\n    var pan: String\n}\n",
            line: 5,
            reason:
                "`- Sensitive: middle` is not a way to mask: write `- Sensitive` (a secret, masked whole) or `- Sensitive: last4`"
        ),
        Case(
            name: "last four of what is not a string",
            source: "/// T.\nstruct T: JSONModel {\n    /// - Sensitive: last4\n    var pins: [String]\n}\n", line: 4,
            reason: "`- Sensitive: last4` keeps the last four characters of a string, but `pins` is not one"),
        Case(
            name: "misspelled sensitive",
            source: "/// T.\nstruct T: JSONModel {\n    /// - sensitive: last4\n    var pan: String\n}\n",
            line: 4, reason: "did you mean `- Sensitive:`"),
        Case(
            name: "sensitive on a type", source: "/// T.\n/// - Sensitive\nstruct T: JSONModel {\n    var pin: String\n}\n",
            line: 3, reason: "`- Sensitive:` does not apply to a type"),
        Case(
            name: "named format masked an unknown way",
            source:
                "/// A code: four digits.\n/// - Pattern: ^[0-9]{4}$\n/// - Sensitive: first2\n/// - Example: \"1234\"\ntypealias Code = String\n",
            line: 4, reason: "`- Sensitive: first2` is not a way to mask"),
    ]

    @Test(arguments: cases)
    func unsupportedShapeIsAnErrorAtItsLine(_ testCase: Case) throws {
        let diagnostics = TestPaths.diagnostics(Self.header + testCase.source)
        let first = try #require(diagnostics.first, "no diagnostic for \(testCase.name)")
        #expect(first.file == "Bad.swift")
        #expect(first.line == testCase.line, "\(first)")
        #expect(first.message.contains(testCase.reason), "\(first)")
        #expect(first.description.hasPrefix("Bad.swift:\(testCase.line): error: "))
    }

    @Test func everyProblemIsReportedInFileAndLineOrderAndNothingIsGenerated() {
        let source = "/// T.\nstruct T: JSONModel {\n    var a: (Int, Int)\n    var b: Nope\n}\n"
        let diagnostics = TestPaths.diagnostics(
            source, extra: [("Another.swift", "/// U.\nstruct U: JSONModel { var c: Float }\n")])
        #expect(
            diagnostics.map(\.description) == [
                "Another.swift:2: error: type `Float` is not a supported field type (use String, Bool, Int, Int64, Int32, UInt, Double, Amount, Currency, Date, URL or JSONValue)",
                "Bad.swift:3: error: type `(Int, Int)` is a tuple: JSON has no tuples; declare a model struct",
                "Bad.swift:4: error: type `Nope` is unknown: it is neither a model in the scanned modules nor a supported primitive (String, Bool, Int, Int64, Int32, UInt, Double, Amount, Currency, Date, URL, JSONValue)",
            ])
    }

    @Test func ambiguousNameAcrossOtherModulesIsAnError() {
        let a = ModuleSources(
            module: "A", prefix: "a", outputPath: "A.swift",
            files: [SourceFile(path: "A.swift", text: "/// X.\nstruct X: JSONModel { var x: Int }\n")])
        let b = ModuleSources(
            module: "B", prefix: "b", outputPath: "B.swift",
            files: [SourceFile(path: "B.swift", text: "/// X.\nstruct X: JSONModel { var x: Int }\n")])
        let c = ModuleSources(
            module: "C", prefix: "c", outputPath: "C.swift",
            files: [SourceFile(path: "C.swift", text: "/// Y.\nstruct Y: JSONModel {\n    var x: X\n}\n")])
        #expect(
            throws: CodegenFailure([
                CodegenDiagnostic(
                    file: "C.swift", line: 3,
                    message: "type `X` is ambiguous: models of that name exist in A, B; qualify it with the module")
            ])
        ) {
            try ModelGenerator.generate([a, b, c])
        }
    }
}
