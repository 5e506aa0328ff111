/// The generator, without any file system: sources in, generated files out.
///
/// ## What it reads
/// - A **model** is a struct or enum that declares `JSONModel` in its own inheritance clause
///   (not in an extension). Its definition name is `<prefix>.<SchemaName>`; `SchemaName` is the
///   `- SchemaName:` tag or the type's name path joined (`ExecutePayment.Params` →
///   `ExecutePaymentParams`).
/// - Struct members are the stored instance properties (computed and `static` ones are not).
///   `T?` is not required and left out when nil (`null` also reads as nil); a property with an
///   initial value is not required and keeps that value when the member is absent (the schema
///   gets `default` when the initializer is a literal or an enum case). A `let` without an
///   initial value is decoded like a `var`. A **`let` with an initial value is an error**: it
///   is a constant that cannot be decoded, and silently dropping it from the wire would hide a
///   mistake; write `var` (a default) or `static let` (not data).
/// - No memberwise init is written: an `init` in an extension with the labels of the one Swift
///   synthesizes is an "invalid redeclaration of synthesized initializer", and an extension is all
///   a generated file can add. A model uses the synthesized (internal) one, which every caller in
///   its module and every `@testable` test can reach; a model that needs more (a computed
///   member, a default that is not the property's) declares its own `init` in its body.
/// - Enums without associated values are strings (raw values, else case names); enums whose
///   cases each carry one unlabeled struct model are unions (`oneOf`), decoded by the first
///   required member of a case's payload that no other payload has.
/// - A model that declares its own `init(json:)` or `encode(to:)` in its body is hand-written: nothing is generated for it,
///   and models that use it embed its `schemaReference` at run time. That is the way out for a
///   shape the generator cannot express.
/// - An `RPCMethod` or `RPCNotification` (or a conformer of a scanned protocol refining them)
///   gets `summary` (first paragraph of its doc comment) and `documentation` (the rest);
///   a missing doc comment is an error.
/// - A protocol refining `RPCMethod` tagged `- Handlers: TatraHandlers` gets that handler
///   protocol: one requirement per conforming method of its module, named after the method type
///   (`ExecutePayment` → `executePayment(_:_:)`), synchronous when the method's `traits` list
///   `.runsInline` and `async` otherwise, and a `register(on:)` that binds
///   every method to its requirement. A service conforms to it instead of listing
///   registrations, so a method without a handler does not compile.
/// - Doc-comment tags (`- Pattern:`, `- MinLength:`, `- MaxLength:`, `- Minimum:`, `- Maximum:`,
///   `- ExclusiveMinimum:`, `- ExclusiveMaximum:`, `- MultipleOf:`, `- MinItems:`, `- MaxItems:`,
///   `- Format:`, `- Example:` (JSON, repeatable → `examples`), `- Key:`, `- SchemaName:`,
///   `- Default:` (JSON), `- Deprecated`) are checked against the field's type and removed from
///   the description. A tag that differs from a known one only in case is an error.
/// - `- Sensitive` marks a secret (a PIN, a token, a security code: `"x-sensitive": true`, masked
///   whole wherever a value is recorded) and `- Sensitive: last4` a card number or the like
///   (`"x-sensitive": "last4"`, a string: all but its last four characters masked); any other value is an
///   error. On a named format it marks every field of the format (`CardNumber`). ``SensitiveMask``
///   reads the keyword back.
/// - A `typealias` of `String` whose doc comment carries `- Pattern:`, `- MinLength:`,
///   `- MaxLength:`, `- Format:` or `- Example:` is a **named format** (``NamedFormat``): declared
///   once, with a summary that names it and one example that must be a value of it; every field of
///   that type gets its constraints and `x-format` (the summary and the example, in words), which
///   the validator says instead of the pattern. `Amount` and `Currency` carry theirs.
/// - `- Alias: recepient (Android)` reads the member under another spelling too; the
///   parentheses say whose spelling it is (for the description and `x-spelling`, which names it
///   when the member is missing) and `one element` when it carries one element of an array.
///
/// Anything else (tuples, closures, generic models, unknown types, mixed enums, ...) is a
/// ``CodegenDiagnostic`` naming the file and line; nothing is written while any exists.
///
/// ```swift
/// let module = ModuleSources(module: "TatraService", prefix: "tatra",
///                            outputPath: "Sources/TatraService/Generated/TatraService+Generated.swift",
///                            files: [SourceFile(path: "Sources/TatraService/Contact.swift", text: source)])
/// let files = try ModelGenerator.generate([module])
/// ```
/// All modules are analyzed together, so a model may refer to a model of another module.
public enum ModelGenerator {
    /// Generates one file per module that declares at least one model or method.
    /// - Throws: ``CodegenFailure`` with every diagnostic, when any shape cannot be expressed.
    public static func generate(_ modules: [ModuleSources]) throws(CodegenFailure) -> [GeneratedFile] {
        var scanner = DeclarationScanner()
        for module in modules {
            for file in module.files.sorted(by: { $0.path < $1.path }) {
                scanner.scan(source: file.text, path: file.path, module: module.module)
            }
        }
        var analyzer = ModelAnalyzer(
            prefixes: Dictionary(modules.map { ($0.module, $0.prefix) }, uniquingKeysWith: { first, _ in first }),
            scan: scanner.result)
        let (models, methods) = analyzer.analyze()
        guard analyzer.diagnostics.isEmpty else { throw CodegenFailure(analyzer.diagnostics) }
        let modelsByID = Dictionary(models.map { ($0.header.id, $0) }, uniquingKeysWith: { first, _ in first })
        let checked = CheckedDecoderEmitter.checkedModels(roots: analyzer.paramsModels(), models: modelsByID)
        var output: [GeneratedFile] = []
        for module in modules {
            var items: [(order: Int, item: SwiftEmitter.Item)] = []
            for model in models where model.header.id.module == module.module && model.header.shape != .handWritten {
                items.append((model.header.type.order, .model(model)))
            }
            for method in methods where method.module == module.module {
                items.append((method.method.order, .method(method.method, file: method.file)))
            }
            for handlers in analyzer.handlerProtocols where handlers.module == module.module {
                items.append((handlers.handlers.order, .handlers(handlers.handlers, file: handlers.file)))
            }
            guard !items.isEmpty else { continue }
            var emitter = SwiftEmitter(module: module.module, headers: analyzer.headers, models: modelsByID, checked: checked)
            let text = emitter.file(items: items.sorted { $0.order < $1.order }.map(\.item))
            output.append(GeneratedFile(path: module.outputPath, contents: text))
        }
        return output
    }
}

/// The Swift sources of one module and where its generated file goes.
public struct ModuleSources: Sendable {
    /// The module (target) name, as Swift code of other modules qualifies its types.
    public var module: String
    /// The schema-name prefix (`tatra` → `tatra.Contact`).
    public var prefix: String
    /// The generated file's path, relative to the output root.
    public var outputPath: String
    /// The model sources.
    public var files: [SourceFile]

    public init(module: String, prefix: String, outputPath: String, files: [SourceFile]) {
        self.module = module
        self.prefix = prefix
        self.outputPath = outputPath
        self.files = files
    }
}

/// One source file: the path diagnostics name it by, and its text.
public struct SourceFile: Sendable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// One generated file: its path relative to the output root, and its contents.
public struct GeneratedFile: Sendable, Equatable {
    public var path: String
    public var contents: String

    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}
