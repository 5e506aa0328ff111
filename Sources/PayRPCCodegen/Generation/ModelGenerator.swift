/// The generator, without any file system: sources in, generated files out.
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
        var output: [GeneratedFile] = []
        for module in modules {
            var items: [(order: Int, item: SwiftEmitter.Item)] = []
            for model in models where model.header.id.module == module.module && model.header.shape != .handWritten {
                items.append((model.header.type.order, .model(model)))
            }
            for method in methods where method.module == module.module {
                items.append((method.method.order, .method(method.method, file: method.file)))
            }
            guard !items.isEmpty else { continue }
            var emitter = SwiftEmitter(module: module.module, headers: analyzer.headers)
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
