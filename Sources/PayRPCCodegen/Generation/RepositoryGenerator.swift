import Foundation

/// Runs the generator over a repository: reads `codegen.json`, the model sources under
/// `Sources/<Module>/` (skipping `Generated/` folders), and writes or checks
/// `Sources/<Module>/Generated/<Module>+Generated.swift`.
public struct RepositoryGenerator {
    /// The repository root (where `codegen.json` and `Sources/` are).
    public var root: URL

    public init(root: URL) {
        self.root = root
    }

    /// What a run found.
    public struct Plan: Sendable {
        /// The files the models generate.
        public var files: [GeneratedFile]
        /// The generated-file paths of modules that generate nothing (no model or method any
        /// more): stale where such a file exists.
        public var stale: [String]
        /// Remarks for the user (modules listed in `codegen.json` that do not exist yet).
        public var notes: [String]
    }

    /// The generated file of `module`, relative to the root.
    public static func outputPath(module: String) -> String { "Sources/\(module)/Generated/\(module)+Generated.swift" }

    /// Reads the sources and generates, without writing anything.
    /// - Throws: ``CodegenConfigurationError`` or ``CodegenFailure``.
    public func plan() throws -> Plan {
        let configuration = try CodegenConfiguration.load(root: root)
        var modules: [ModuleSources] = []
        var notes: [String] = []
        var stale: [String] = []
        let fileManager = FileManager.default
        for module in configuration.modules.keys.sorted() {
            let directory = root.appendingPathComponent("Sources").appendingPathComponent(module)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                notes.append("note: module \(module) (codegen.json) has no directory Sources/\(module) yet; skipped")
                continue
            }
            var files: [SourceFile] = []
            for relative in try swiftFiles(under: directory) {
                let path = "Sources/\(module)/\(relative)"
                let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
                files.append(SourceFile(path: path, text: text))
            }
            modules.append(
                ModuleSources(
                    module: module, prefix: configuration.modules[module]!,
                    outputPath: Self.outputPath(module: module), files: files))
        }
        var generated = try ModelGenerator.generate(modules)
        for (module, paths) in (configuration.documents ?? [:]).sorted(by: { $0.key < $1.key }) {
            var files: [(path: String, text: String)] = []
            for path in paths {
                guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else {
                    throw CodegenConfigurationError(
                        message: "\(CodegenConfiguration.fileName): documents of \(module): cannot read \(path)")
                }
                files.append((path, text))
            }
            generated.append(
                GeneratedFile(
                    path: DocumentEmitter.outputPath(module: module),
                    contents: DocumentEmitter.emit(module: module, files: files)))
        }
        let generatedPaths = Set(generated.map(\.path))
        for module in modules where !generatedPaths.contains(module.outputPath) { stale.append(module.outputPath) }
        return Plan(files: generated, stale: stale, notes: notes)
    }

    /// The `.swift` files under `directory`, relative to it, sorted, leaving out `Generated/` folders.
    func swiftFiles(under directory: URL) throws -> [String] {
        let fileManager = FileManager.default
        var result: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let url = relative.isEmpty ? directory : directory.appendingPathComponent(relative)
            for name in try fileManager.contentsOfDirectory(atPath: url.path) {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory) else {
                    continue
                }
                if isDirectory.boolValue {
                    if name != "Generated" && !name.hasPrefix(".") { pending.append(child) }
                } else if name.hasSuffix(".swift") {
                    result.append(child)
                }
            }
        }
        return result.sorted()
    }

    /// The differences between `plan` and the files under `outputRoot`: each path (relative to
    /// the root) whose contents differ, is missing, or is stale.
    public static func differences(_ plan: Plan, outputRoot: URL) -> [String] {
        var differing: [String] = []
        for file in plan.files {
            let existing = try? String(contentsOf: outputRoot.appendingPathComponent(file.path), encoding: .utf8)
            if existing != file.contents { differing.append(file.path) }
        }
        for path in plan.stale where FileManager.default.fileExists(atPath: outputRoot.appendingPathComponent(path).path) {
            differing.append(path)
        }
        return differing
    }

    /// Writes the planned files under `outputRoot` and removes stale generated files there.
    /// Files whose contents are already right are not touched. Returns the paths written.
    @discardableResult
    public static func write(_ plan: Plan, outputRoot: URL) throws -> [String] {
        let fileManager = FileManager.default
        var written: [String] = []
        for file in plan.files {
            let url = outputRoot.appendingPathComponent(file.path)
            if (try? String(contentsOf: url, encoding: .utf8)) == file.contents { continue }
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
            written.append(file.path)
        }
        for path in plan.stale {
            let url = outputRoot.appendingPathComponent(path)
            if fileManager.fileExists(atPath: url.path) {
                try fileManager.removeItem(at: url)
                written.append(path)
            }
        }
        return written
    }
}
